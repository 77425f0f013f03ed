"""The seeded workbooks belong to the same company as the chat and the CRM: the pipeline
export agrees with the CRM's opportunities, expense reports are real people's, the
headcount plan counts the directory, and the damaged workbooks are damaged. A tiny
company with an empty CRM seeds too."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from sqlalchemy import func, select

from officegym.apps.crm.models import Opportunity
from officegym.apps.org.models import Person, Team
from officegym.apps.sheets import service as sheets
from officegym.apps.sheets.models import Workbook
from officegym.seed_data import build_image
from officegym.world import World
from tests.apps.sheets.helpers import owner, values, workbook

GOOD = (Path(__file__).parents[3] / "seed_data" / "scenarios" / "default.toml").read_text()


def test_the_pipeline_export_is_the_crm(world: World) -> None:
    with world.session() as s:
        wb, me = workbook(s, "Pipeline Export"), owner(s, "Pipeline Export")
        rows = values(s, me, wb, "A2:H1000")
        opps = s.execute(
            select(Opportunity.name, Opportunity.amount, Person.name)
            .join(Person, Person.id == Opportunity.owner_id)
            .order_by(Opportunity.id)
        ).all()
        assert [(r[0], r[5], r[3]) for r in rows] == [(n, a or 0, p) for n, a, p in opps]
        assert {r[2] for r in rows} <= {"North America", "EMEA", "APAC"}


def test_people_and_teams_of_the_workbooks_are_the_directory(world: World) -> None:
    with world.session() as s:
        reports = s.scalars(select(Workbook).where(Workbook.name.like("Expenses - %"))).all()
        assert len(reports) == 6
        for wb in reports:
            person = s.get_one(Person, wb.owner_id)
            assert person.name in wb.name
            assert [p.id for p, _ in sheets.shares_of(s, wb)] == [person.manager_id]
        plan, me = workbook(s, "Headcount Plan 2026"), owner(s, "Headcount Plan 2026")
        sizes = Counter(s.scalars(select(Team.name).join(Person, Person.team_id == Team.id)))
        for team, _head, current, *_ in values(s, me, plan, "A2:G7"):
            assert current == sizes[team]


def test_the_damaged_workbooks_show_their_damage(world: World) -> None:
    with world.session() as s:
        regional = workbook(s, "Regional Sales Summary")
        me = owner(s, "Regional Sales Summary")
        assert sum(row[0] == "#REF!" for row in values(s, me, regional, "Summary!B2:B6")) == 2
        spend, me = workbook(s, "Q1 Marketing Spend"), owner(s, "Q1 Marketing Spend")
        grid = values(s, me, spend, "A1:E8")
        assert grid[-1][0] == "Total" and grid[-1][4] != sum(r[4] for r in grid[1:-1])
        weekly, me = workbook(s, "Support Tickets Weekly"), owner(s, "Support Tickets Weekly")
        grid = values(s, me, weekly, "A1:C15")
        assert grid[-1][1] == sum(r[1] for r in grid[1:-5]) != sum(r[1] for r in grid[1:-1])


def test_a_tiny_company_with_an_empty_crm_seeds(tmp_path: Path) -> None:
    path = tmp_path / "tiny.toml"
    text = GOOD.replace("people = 60", "people = 12").replace("accounts = 200", "accounts = 0")
    path.write_text(
        text.replace("orders = 200", "orders = 25").replace("messages = 3500", "messages = 200")
    )
    world = World(build_image(str(path), 0))
    with world.session() as s:
        assert s.scalar(select(func.count()).select_from(Opportunity)) == 0
        export = workbook(s, "Pipeline Export")
        assert values(s, owner(s, "Pipeline Export"), export, "A1:H5") == [
            [
                "Opportunity",
                "Account",
                "Region",
                "Owner",
                "Stage",
                "Amount",
                "Close Date",
                "Probability",
            ]
        ]
        assert len(values(s, owner(s, "Orders 2025"), workbook(s, "Orders 2025"), "A:A")) == 26
    world.close()
