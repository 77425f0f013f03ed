"""CSV export/import: a round trip into an empty CRM reproduces the records (converted
leads and their links included), files link records by name only, and a bad file
reports each bad row (row, column, reason) while importing nothing."""

from __future__ import annotations

import csv
import datetime as dt
import io
import random
from collections.abc import Iterator

import pytest
from faker import Faker
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from officegym.apps.crm import service as crm
from officegym.apps.crm.csv_io import CSV_TYPES, export_csv, import_csv
from officegym.apps.crm.models import Account, Contact, Lead, Opportunity
from officegym.apps.org.models import Person
from officegym.clock import SimClock
from officegym.db import create_schema, engine_for, serialize
from officegym.seed_data import crm as crm_seed
from officegym.seed_data import org as org_seed
from officegym.seed_data.context import SeedContext
from officegym.seed_data.scenario import load_scenario
from officegym.world import World, WorldImage

from .helpers import cast


@pytest.fixture(scope="module")
def empty_crm_image() -> WorldImage:
    """The default world's org directory and CRM roles, and no CRM records at all."""
    sc = load_scenario("default")
    fake = Faker(sc.locale)
    fake.seed_instance(0)
    ctx = SeedContext(scenario=sc, fake=fake, rng=random.Random(f"{sc.name}:0"))
    engine = engine_for("sqlite://")
    create_schema(engine)
    with Session(engine, info={"clock": SimClock(sc.date)}) as s:
        org_seed.seed(s, ctx)
        crm_seed.crew(s, ctx)
        s.commit()
    image = WorldImage(scenario="empty-crm", seed=0, data=serialize(engine), start=sc.date)
    engine.dispose()
    return image


@pytest.fixture
def empty_world(empty_crm_image: WorldImage) -> Iterator[World]:
    w = World(empty_crm_image)
    yield w
    w.close()


def without_ids(text: str) -> list[list[str]]:
    """The rows of a CSV file without its informational id column."""
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0][0] == "id"
    return [row[1:] for row in rows]


def admin(s: Session) -> Person:
    return s.scalars(select(Person).where(Person.title == "Chief Operating Officer")).one()


def conversions(s: Session) -> set[tuple[str | None, ...]]:
    """Every converted lead by email, with when it converted and the names of what it became."""
    out = set()
    for lead in s.scalars(select(Lead).where(Lead.status == "Converted")):
        account = s.get_one(Account, lead.converted_account_id)
        contact = s.get_one(Contact, lead.converted_contact_id)
        opp = s.get(Opportunity, lead.converted_opportunity_id or 0)
        when = str(lead.converted_at)
        out.add((lead.email, when, account.name, contact.email, opp.name if opp else None))
    return out


def test_round_trip_into_an_empty_crm_reproduces_the_records(
    world: World, empty_world: World
) -> None:
    with world.session() as s:
        files = {rt: export_csv(s, admin(s), rt) for rt in CSV_TYPES}
        converted = conversions(s)
        assert len(files["lead"].splitlines()) == s.scalar(select(func.count(Lead.id))) + 1
    assert len(files["account"].splitlines()) == 201
    assert len(converted) == 22 and sum(1 for c in converted if c[-1]) == 11
    with empty_world.session() as s:
        assert s.scalar(select(func.count(Account.id))) == 0
        for rt in CSV_TYPES:
            result = import_csv(s, admin(s), rt, files[rt])
            assert result.ok, result.errors[:3]
            assert len(result.created) == len(files[rt].splitlines()) - 1
        s.commit()
    with empty_world.session() as s:
        for rt in CSV_TYPES:
            assert without_ids(export_csv(s, admin(s), rt)) == without_ids(files[rt]), rt
        assert export_csv(s, admin(s), "account") == files["account"]  # same ids, in order
        assert conversions(s) == converted


def test_an_all_digit_name_in_a_file_is_a_name_not_an_id(world: World) -> None:
    with world.session() as s:
        who = cast(s)
        named_7 = crm.create_record(s, who.admin, "account", {"name": "7"})
        text = "last_name,account\nDoe,7\nRoe,12\n"
        result = import_csv(s, who.admin, "contact", text)
        assert [(e.row, e.column, e.reason) for e in result.errors] == [
            (3, "account", "no account named '12'")
        ]
        assert import_csv(s, who.admin, "contact", "last_name,account\nDoe,7\n").ok
        doe = s.scalars(select(Contact).where(Contact.last_name == "Doe")).one()
        assert doe.account_id == named_7.id != 7


def test_an_imported_closed_opportunity_keeps_the_files_close_date(world: World) -> None:
    with world.session() as s:
        who = cast(s)
        # quoted: a company name may hold a comma ("Smith, Lee and Park")
        text = 'name,account,stage,close_date\nOld deal,"{}",Closed Won,2025-11-30\n'
        result = import_csv(s, who.admin, "opportunity", text.format(s.get_one(Account, 1).name))
        assert result.ok, result.errors
        opp = s.get_one(Opportunity, result.created[0])
        assert (opp.stage, opp.probability, opp.close_date) == ("Closed Won", 100,
                                                                dt.date(2025, 11, 30))  # fmt: skip
        assert opp.closed_at == dt.datetime(2025, 11, 30)


def test_a_converted_lead_row_needs_its_links_and_only_it_has_them(world: World) -> None:
    with world.session() as s:
        who = cast(s)
        account = s.get_one(Account, 1)
        contact = s.scalars(select(Contact).where(Contact.account_id == account.id)).first()
        text = ("last_name,company,status,converted_account,converted_contact\n"
                f'Ann,Acme,Converted,"{account.name}",\n'
                f'Bob,Acme,Working,"{account.name}",\n'
                f'Cy,Acme,Converted,"{account.name}",{contact.email}\n')  # fmt: skip
        result = import_csv(s, who.admin, "lead", text)
        assert [(e.row, e.column) for e in result.errors] == [
            (2, "converted_contact"), (3, "converted_account")
        ]  # fmt: skip
        assert "required" in result.errors[0].reason and "Converted" in result.errors[1].reason
        result = import_csv(s, who.admin, "lead", "\n".join(text.splitlines()[::3]))
        assert result.ok, result.errors
        cy = s.get_one(Lead, result.created[0])
        assert (cy.status, cy.converted_account_id, cy.converted_contact_id) == (
            "Converted", account.id, contact.id)  # fmt: skip
        assert cy.converted_at is not None and cy.converted_opportunity_id is None


BAD_ACCOUNTS = """name,type,industry,annual_revenue,employees,owner
Fine Company,Customer,Retail,1000000,50,{rep}
,Prospect,Retail,10,1,{rep}
Another Fine Co,Prospect,Mining,-5,12,nobody@nowhere.test
Third Fine Co,Partner,Energy,500,lots,{rep}
Fine Company,Customer,Retail,1000000,50,{rep}
"""


def test_a_malformed_file_reports_its_bad_rows_and_imports_nothing(world: World) -> None:
    with world.session() as s:
        who = cast(s)
        before = s.scalar(select(func.count(Account.id)))
        result = import_csv(s, who.admin, "account", BAD_ACCOUNTS.format(rep=who.rep.email))
        found = {(e.row, e.column) for e in result.errors}
        assert found == {(3, "name"), (4, "industry"), (4, "annual_revenue"), (4, "owner"),
                         (5, "employees"), (6, "")}  # fmt: skip
        assert "already exists" in next(e.reason for e in result.errors if e.row == 6)
        assert not result.ok and result.created == []
        s.commit()
        assert s.scalar(select(func.count(Account.id))) == before
        assert crm.records.account_named(s, "Fine Company") is None


def test_header_problems_are_reported_before_any_row(world: World) -> None:
    with world.session() as s:
        who = cast(s)
        result = import_csv(s, who.admin, "opportunity", "name,colour\nDeal,red\n")
        assert {(e.row, e.column) for e in result.errors} == {
            (1, "colour"), (1, "account"), (1, "close_date")
        }  # fmt: skip


def test_rows_follow_the_importers_permissions(world: World) -> None:
    with world.session() as s:
        who = cast(s)
        text = f"last_name,company,owner\nDoe,Acme,{who.rep.email}\nRoe,Acme,{who.rep2.email}\n"
        result = import_csv(s, who.rep, "lead", text)
        assert [(e.row, "reps cannot give" in e.reason) for e in result.errors] == [(3, True)]
        assert result.created == []
        assert import_csv(s, who.manager, "lead", text).ok
