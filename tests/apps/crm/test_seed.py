"""The seeded CRM matches its scenario and its org chart, and the chat talks about
records that really exist."""

from __future__ import annotations

import re

from sqlalchemy import func, select

from officegym.apps.crm.models import (
    CLOSED_STAGES,
    STAGE_PROBABILITY,
    Account,
    Activity,
    Case,
    Contact,
    FieldHistory,
    Lead,
    Opportunity,
    UserRole,
)
from officegym.apps.org.models import Person
from officegym.apps.slack.models import Channel, Message
from officegym.world import World


def test_volumes_match_the_default_scenario(world: World) -> None:
    expected = {Account: 200, Contact: 600, Lead: 150, Opportunity: 300, Case: 150}
    with world.session() as s:
        for model, n in expected.items():
            assert s.scalar(select(func.count(model.id))) == n, model.__name__
        assert 400 <= (s.scalar(select(func.count(Activity.id))) or 0) <= 450
        assert (s.scalar(select(func.count(FieldHistory.id))) or 0) > 1000


def test_roles_follow_the_org_chart(world: World) -> None:
    with world.session() as s:
        roles = {p.title: r for p, r in s.execute(select(Person, UserRole.role).join(
            UserRole, UserRole.person_id == Person.id))}  # fmt: skip
        assert roles["Chief Operating Officer"] == "admin"
        assert roles["Head of Sales"] == roles["Head of Customer Support"] == "manager"
        teams = {p.team.slug for p in s.scalars(select(Person).join(UserRole))}
        assert teams == {"leadership", "sales", "customer-support"}
        assert list(roles.values()).count("admin") == 1


def test_owners_are_in_the_right_teams(world: World) -> None:
    with world.session() as s:

        def teams(model: type) -> set[str]:
            stmt = select(Person).where(Person.id.in_(select(model.owner_id)))
            return {p.team.slug for p in s.scalars(stmt)}

        for model in (Account, Contact, Lead, Opportunity):
            assert teams(model) == {"sales"}, model.__name__
        assert teams(Case) == {"customer-support"}


def test_pipeline_is_consistent_with_the_stage_rules(world: World) -> None:
    with world.session() as s:
        opps = list(s.scalars(select(Opportunity)))
        stages = {o.stage for o in opps}
        assert stages == set(STAGE_PROBABILITY)
        for o in opps:
            if o.stage in CLOSED_STAGES:
                assert o.probability == STAGE_PROBABILITY[o.stage]
                assert o.closed_at is not None and o.closed_at.date() == o.close_date
                assert (o.loss_reason is not None) == (o.stage == "Closed Lost")
            assert o.created_at < world.image.start
        overdue = [
            o
            for o in opps
            if o.stage not in CLOSED_STAGES and o.close_date < world.image.start.date()
        ]
        assert overdue, "some open deals are past their close date (clean-up material)"


def test_chat_refers_to_real_deals_and_cases(world: World) -> None:
    with world.session() as s:

        def texts(channel: str) -> list[str]:
            stmt = select(Message.text).join(Channel).where(Channel.name == channel)
            return list(
                s.scalars(stmt.where(Message.created_at > world.image.start.replace(hour=8)))
            )

        names = set(s.scalars(select(Opportunity.name)))
        deal_msgs = [t for t in texts("sales") if any(n in t for n in names)]
        assert len(deal_msgs) >= 3
        numbers = re.findall(r"\b(\d{8})\b", " ".join(texts("customer-support")))
        assert numbers and all(s.scalar(select(Case.id).where(Case.number == n)) for n in numbers)
        dms = s.scalars(select(Message.text).join(Channel).where(Channel.kind == "dm",
                        Message.text.like("%discount%")))  # fmt: skip
        assert any(n in t for t in dms for n in names)


def test_chat_requests_name_records_that_exist_and_can_still_be_done(world: World) -> None:
    from officegym.tasks.cross.common import requests_of

    with world.session() as s:
        for kind in ("stage", "question", "escalation"):
            found = requests_of(s, kind)
            assert len(found) >= 30, kind
            assert all(r.owner is not None and r.record is not None for r in found), kind
            assert all(r.record.owner_id == r.owner.id for r in found), kind
        assert all(r.record.status in ("New", "Working") for r in requests_of(s, "escalation"))
        leads = requests_of(s, "lead")
        companies = {x.lower() for x in s.scalars(select(Lead.company))}
        assert len(leads) >= 20 and not {r.fields["company"].lower() for r in leads} & companies
