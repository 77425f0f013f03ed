"""CRM rules users know from Salesforce: lead conversion, the stage pipeline, case
escalation and closing, validation, field history — including every refusal."""

from __future__ import annotations

import datetime as dt

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from officegym.apps.crm import service as crm
from officegym.apps.crm.models import (
    STAGE_PROBABILITY,
    Account,
    Activity,
    Contact,
    FieldHistory,
    Lead,
    Opportunity,
)
from officegym.apps.crm.records import account_named
from officegym.errors import Conflict, Forbidden, Invalid
from officegym.world import World

from .helpers import call, cast, open_opportunity_of

TODAY = dt.date(2026, 3, 2)  # the default scenario's date


def counts(s: Session) -> tuple[int, ...]:
    return tuple(s.scalar(select(func.count(m.id))) or 0 for m in (Account, Contact, Opportunity))


def fresh_lead(s: Session, owner) -> Lead:
    """An open lead of `owner` whose company is not an account yet."""
    page = crm.search(s, owner, "lead", filters={"owner_id": owner.id}, is_open=True, sort="id")
    return next(x for x in page.items if account_named(s, x.company) is None)


# ---------------------------------------------------------------- leads


def test_conversion_creates_account_contact_and_opportunity(world: World) -> None:
    with world.session() as s:
        who = cast(s)
        lead = crm.create_record(s, who.rep, "lead", {
            "first_name": "Ada", "last_name": "Byron", "company": "Engine Works",
            "email": "ada@engine.example", "industry": "Technology", "source": "Web"})  # fmt: skip
        before = counts(s)
        done = crm.convert_lead(s, who.rep, lead, amount=40_000)
        assert counts(s) == (before[0] + 1, before[1] + 1, before[2] + 1)
        assert done.account.name == "Engine Works" and done.account.industry == "Technology"
        assert (done.contact.name, done.contact.account_id) == ("Ada Byron", done.account.id)
        opp = done.opportunity
        assert opp is not None and opp.name == "Engine Works - New Business"
        assert (opp.stage, opp.probability, opp.amount) == ("Prospecting", 10, 40_000)
        assert opp.close_date == dt.date(2026, 3, 31)  # end of the quarter
        assert (opp.lead_source, opp.contact_id) == ("Web", done.contact.id)
        assert lead.status == "Converted" and lead.converted_opportunity_id == opp.id
        assert {done.account.owner_id, done.contact.owner_id, opp.owner_id} == {who.rep.id}
        changed = {h.field for h in crm.field_history(s, who.rep, "lead", lead.id)}
        assert {"status", "converted_account_id", "converted_contact_id"} <= changed


def test_a_lead_converts_only_once(world: World) -> None:
    with world.session() as s:
        who = cast(s)
        lead = fresh_lead(s, who.rep)
        crm.convert_lead(s, who.rep, lead, create_opportunity=False)
        before = counts(s)
        with pytest.raises(Conflict, match="already converted"):
            crm.convert_lead(s, who.rep, lead)
        with pytest.raises(Conflict, match="converted"):
            crm.update_record(s, who.rep, "lead", lead, {"rating": "Hot"})
        assert counts(s) == before


def test_conversion_refuses_to_duplicate_an_account_and_links_one_on_request(world: World) -> None:
    with world.session() as s:
        who = cast(s)
        account = s.get_one(Account, 1)
        lead = crm.create_record(s, who.rep, "lead", {"last_name": "Kay", "company": account.name})
        before = counts(s)
        with pytest.raises(Conflict, match=f"id {account.id}"):
            crm.convert_lead(s, who.rep, lead)
        assert counts(s) == before and lead.status == "New"
        done = crm.convert_lead(s, who.rep, lead, account=account, create_opportunity=False)
        assert (done.account.id, done.account_created, done.opportunity) == (
            account.id,
            False,
            None,
        )
        assert counts(s) == (before[0], before[1] + 1, before[2])


def test_conversion_rejects_a_contact_of_another_account(world: World) -> None:
    with world.session() as s:
        who = cast(s)
        lead = fresh_lead(s, who.rep)
        other = s.scalars(select(Contact).where(Contact.account_id == 2)).first()
        before = counts(s)
        with pytest.raises(Invalid, match=r"not a contact of account 1 .*belongs to account 2"):
            crm.convert_lead(s, who.rep, lead, account=s.get_one(Account, 1), contact=other)
        assert lead.status != "Converted" and counts(s) == before


def test_conversion_with_a_contact_and_no_account_goes_to_the_contacts_account(
    world: World,
) -> None:
    with world.session() as s:
        who = cast(s)
        lead = fresh_lead(s, who.rep)
        contact = s.scalars(select(Contact).where(Contact.account_id == 2)).first()
        before = counts(s)
        done = crm.convert_lead(s, who.rep, lead, contact=contact)
        assert (done.account.id, done.contact.id) == (2, contact.id)
        assert (done.account_created, done.contact_created) == (False, False)
        assert counts(s) == (before[0], before[1], before[2] + 1)
        assert (lead.converted_account_id, done.opportunity.account_id) == (2, 2)


def test_conversion_refuses_a_contact_without_an_account_before_creating_anything(
    world: World,
) -> None:
    with world.session() as s:
        who = cast(s)
        lead = fresh_lead(s, who.rep)
        loner = crm.create_record(s, who.rep, "contact", {"last_name": "Solo"})
        before = counts(s)
        with pytest.raises(Invalid, match="belongs to no account"):
            crm.convert_lead(s, who.rep, lead, contact=loner)
        assert lead.status != "Converted" and counts(s) == before


def test_only_someone_who_may_edit_the_lead_converts_it(world: World) -> None:
    with world.session() as s:
        who = cast(s)
        lead = fresh_lead(s, who.rep)
        with pytest.raises(Forbidden):
            crm.convert_lead(s, who.rep2, lead)
        done = crm.convert_lead(s, who.manager, lead)
        assert done.account.owner_id == who.rep.id  # new records go to the lead's owner


def test_lead_status_converted_cannot_be_set_by_hand(world: World) -> None:
    with world.session() as s:
        who = cast(s)
        with pytest.raises(Invalid, match="converting"):
            crm.create_record(s, who.rep, "lead", {"last_name": "X", "company": "Y",
                                                   "status": "Converted"})  # fmt: skip
        with pytest.raises(Invalid, match="conversion"):
            crm.update_record(s, who.rep, "lead", fresh_lead(s, who.rep), {"status": "Converted"})


def test_conversion_checks_amount_text_by_the_field_rules(world: World) -> None:
    with world.session() as s:
        who = cast(s)
        lead = fresh_lead(s, who.rep)
        with pytest.raises(Invalid, match="opportunity amount: must be a whole number"):
            crm.convert_lead(s, who.rep, lead, amount="-5")
        assert lead.status != "Converted"
        done = crm.convert_lead(s, who.rep, lead, amount="50,000", close_date="2026-05-15")
        assert (done.opportunity.amount, done.opportunity.close_date) == (
            50_000,
            dt.date(2026, 5, 15),
        )


# ---------------------------------------------------------------- stages


@pytest.mark.parametrize("stage", ["Qualification", "Needs Analysis", "Proposal", "Negotiation"])
def test_open_stages_take_their_default_probability(world: World, stage: str) -> None:
    with world.session() as s:
        who = cast(s)
        opp = open_opportunity_of(s, who.rep)
        if opp.stage == stage:
            crm.change_stage(s, who.rep, opp, "Prospecting")
        crm.change_stage(s, who.rep, opp, stage)
        assert (opp.stage, opp.probability, opp.closed_at) == (
            stage,
            STAGE_PROBABILITY[stage],
            None,
        )


def test_closing_won_sets_probability_and_close_date_then_locks(world: World) -> None:
    with world.session() as s:
        who = cast(s)
        opp = open_opportunity_of(s, who.rep)
        crm.change_stage(s, who.rep, opp, "Closed Won")
        assert (opp.probability, opp.close_date, opp.loss_reason) == (100, TODAY, None)
        assert opp.closed_at is not None and opp.closed_at.date() == TODAY
        for actor in (who.rep, who.manager):
            with pytest.raises(Conflict, match="locked"):
                crm.change_stage(s, actor, opp, "Negotiation")
            with pytest.raises(Conflict, match="locked"):
                crm.update_record(s, actor, "opportunity", opp, {"amount": 1})
        crm.change_stage(s, who.admin, opp, "Negotiation")  # admins may reopen
        assert (opp.stage, opp.probability, opp.closed_at) == ("Negotiation", 80, None)


@pytest.mark.parametrize(
    ("stage", "reason", "probability"), [("Closed Won", None, 100), ("Closed Lost", "Price", 0)]
)
def test_an_opportunity_created_closed_is_closed_today(
    world: World, stage: str, reason: str | None, probability: int
) -> None:
    with world.session() as s:
        values = {"name": "Born closed", "account_id": 1, "close_date": "2026-09-30",
                  "stage": stage, "loss_reason": reason}  # fmt: skip
        opp = crm.create_record(s, cast(s).rep, "opportunity", values)
        assert (opp.stage, opp.probability, opp.close_date) == (stage, probability, TODAY)
        assert opp.closed_at is not None and opp.closed_at.date() == TODAY


def test_closing_lost_needs_a_reason(world: World) -> None:
    with world.session() as s:
        who = cast(s)
        opp = open_opportunity_of(s, who.rep)
        stage = opp.stage
        with pytest.raises(Invalid, match="loss_reason"):
            crm.change_stage(s, who.rep, opp, "Closed Lost")
        assert opp.stage == stage
        crm.change_stage(s, who.rep, opp, "Closed Lost", loss_reason="competitor")
        assert (opp.probability, opp.loss_reason, opp.close_date) == (0, "Competitor", TODAY)


def test_stage_refusals(world: World) -> None:
    with world.session() as s:
        who = cast(s)
        opp = open_opportunity_of(s, who.rep)
        with pytest.raises(Conflict, match="already at stage"):
            crm.change_stage(s, who.rep, opp, opp.stage)
        with pytest.raises(Invalid, match="not one of"):
            crm.change_stage(s, who.rep, opp, "Won")
        with pytest.raises(Invalid, match="only to Closed Lost"):
            crm.change_stage(s, who.rep, opp, "Closed Won", loss_reason="Price")


def test_update_moves_stage_before_the_probability_override(world: World) -> None:
    with world.session() as s:
        who = cast(s)
        opp = open_opportunity_of(s, who.rep)
        target = "Negotiation" if opp.stage != "Negotiation" else "Proposal"
        changes = {"stage": target, "probability": 70, "next_step": "Sign"}
        changed = crm.update_record(s, who.rep, "opportunity", opp, changes)
        assert (opp.stage, opp.probability, opp.next_step) == (target, 70, "Sign")
        assert changed == ["next_step", "stage", "probability"]
        with pytest.raises(Invalid, match="fixed"):
            crm.update_record(s, who.rep, "opportunity", opp,
                              {"stage": "Closed Won", "probability": 90})  # fmt: skip
        assert opp.stage == target


def test_an_update_is_all_or_nothing(world: World) -> None:
    with world.session() as s:
        who = cast(s)
        opp = open_opportunity_of(s, who.rep)
        name, history = opp.name, s.scalar(select(func.count(FieldHistory.id)))
        with pytest.raises(Invalid, match="amount"):
            crm.update_record(s, who.rep, "opportunity", opp, {"name": "Renamed", "amount": -1})
        assert opp.name == name
        assert s.scalar(select(func.count(FieldHistory.id))) == history


# ---------------------------------------------------------------- cases


def test_escalation_raises_priority_logs_the_reason_and_can_hand_over(world: World) -> None:
    with world.session() as s:
        who = cast(s)
        case = crm.create_record(s, who.support_rep, "case", {"subject": "Down", "priority": "Low"})
        assert (case.status, case.number) == ("New", f"{1000 + case.id:08d}")
        crm.escalate_case(s, who.support_manager, case, reason="Customer threatened to churn",
                          owner=who.support_manager)  # fmt: skip
        assert (case.status, case.priority, case.owner_id) == (
            "Escalated",
            "High",
            who.support_manager.id,
        )
        note = s.scalars(select(Activity).where(Activity.record_type == "case",
                                                Activity.record_id == case.id)).one()  # fmt: skip
        assert note.kind == "note" and "churn" in note.subject
        with pytest.raises(Conflict, match="already escalated"):
            crm.escalate_case(s, who.support_manager, case, reason="again")


def test_closing_needs_a_resolution_and_locks_until_reopened(world: World) -> None:
    with world.session() as s:
        who = cast(s)
        case = crm.create_record(s, who.support_rep, "case", {"subject": "Slow dashboard"})
        with pytest.raises(Invalid, match="resolution"):
            crm.close_case(s, who.support_rep, case, resolution="  ")
        with pytest.raises(Invalid, match="close_case"):
            crm.update_record(s, who.support_rep, "case", case, {"status": "Closed"})
        crm.close_case(s, who.support_rep, case, resolution="Cache cleared")
        assert (case.status, case.resolution) == ("Closed", "Cache cleared")
        with pytest.raises(Conflict, match="already closed"):
            crm.close_case(s, who.support_rep, case, resolution="again")
        with pytest.raises(Conflict, match="reopen"):
            crm.update_record(s, who.support_rep, "case", case, {"subject": "Edited"})
        crm.update_record(s, who.support_rep, "case", case, {"status": "Working"})
        assert (case.status, case.closed_at) == ("Working", None)


# ---------------------------------------------------------------- validation and history


@pytest.mark.parametrize(
    ("record_type", "values", "message"),
    [
        ("account", {"name": ""}, "name: is required"),
        ("account", {"name": "X", "employees": -1}, "employees"),
        ("account", {"name": "X", "industry": "Mining"}, "not one of"),
        ("contact", {"last_name": "Doe", "email": "not-an-email"}, "email"),
        ("lead", {"last_name": "Doe"}, "company: is required"),
        ("opportunity", {"name": "X", "account_id": 1}, "close_date: is required"),
        ("opportunity", {"name": "X", "account_id": 999, "close_date": "2026-05-01"}, "no account"),
        ("opportunity", {"name": "X", "account_id": 1, "close_date": "next week"}, "YYYY-MM-DD"),
        ("opportunity", {"name": "X", "account_id": 1, "close_date": "2026-05-01",
                         "probability": 140}, "probability"),
    ],
)  # fmt: skip
def test_invalid_values_are_refused_with_the_field_named(
    world: World, record_type: str, values: dict, message: str
) -> None:
    with world.session() as s, pytest.raises(Invalid, match=message):
        crm.create_record(s, cast(s).rep, record_type, values)


def test_account_names_are_unique_ignoring_case(world: World) -> None:
    with world.session() as s:
        who = cast(s)
        name = s.get_one(Account, 1).name
        with pytest.raises(Conflict, match="already exists"):
            crm.create_record(s, who.rep, "account", {"name": name.upper()})
        with pytest.raises(Conflict, match="already exists"):
            crm.update_record(s, who.admin, "account", s.get_one(Account, 2), {"name": name})


def test_every_field_change_is_in_the_history(world: World) -> None:
    with world.session() as s:
        who = cast(s)
        account = crm.search(s, who.rep, "account", filters={"owner_id": who.rep.id}).items[0]
        old_city = account.billing_city
        out = call(s, who.rep, "crm_update_account", account=account.id, billing_city="Oslo",
                   employees=account.employees)  # fmt: skip
        assert out["changed"] == ["billing_city"]
        rows = crm.field_history(s, who.rep, "account", account.id)
        assert [(h.field, h.old_value, h.new_value, h.changed_by_id) for h in rows[:1]] == [
            ("billing_city", old_city, "Oslo", who.rep.id)
        ]


def test_a_search_of_thousands_of_words_is_refused_not_a_database_error(world: World) -> None:
    """Each distinct word is a clause: a repeated word counts once, and more than 20
    distinct words are a clear refusal (thousands overflowed SQLite's expression depth)."""
    with world.session() as s:
        who = cast(s)
        name = crm.search(s, who.rep, "account", filters={"owner_id": who.rep.id}).items[0].name
        word = name.split()[0]
        repeated = crm.search(s, who.rep, "account", query=" ".join([word] * 3000))
        assert repeated.total == crm.search(s, who.rep, "account", query=word).total > 0
        with pytest.raises(Invalid, match="more than 20 words"):
            crm.search(s, who.rep, "opportunity", query=" ".join(f"w{i}" for i in range(3000)))
