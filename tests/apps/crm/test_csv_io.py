"""CSV export/import: a round trip into an empty CRM reproduces the records, and a
bad file reports each bad row (row, column, reason) while importing nothing."""

from __future__ import annotations

import csv
import io
import random
from collections.abc import Iterator

import pytest
from faker import Faker
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from officegym.apps.crm import service as crm
from officegym.apps.crm.csv_io import CSV_TYPES, export_csv, import_csv
from officegym.apps.crm.models import Account, Lead
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


def test_round_trip_into_an_empty_crm_reproduces_the_records(
    world: World, empty_world: World
) -> None:
    with world.session() as s:
        files = {rt: export_csv(s, admin(s), rt) for rt in CSV_TYPES}
        unconverted = s.scalar(select(func.count(Lead.id)).where(Lead.status != "Converted"))
    assert len(files["account"].splitlines()) == 201
    assert len(files["lead"].splitlines()) == unconverted + 1
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
