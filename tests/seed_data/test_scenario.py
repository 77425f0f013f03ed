"""Scenario files are validated; a bad one names the file, the field and the reason."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import func, select

from officegym.apps.crm.models import Account, Contact, Opportunity
from officegym.apps.org.models import Person, Team
from officegym.apps.slack.models import Message
from officegym.errors import ConfigError, NotFound
from officegym.seed_data import build_image
from officegym.seed_data.scenario import load_scenario, scenario_names
from officegym.world import World, world_image

GOOD = (Path(__file__).parents[2] / "seed_data" / "scenarios" / "default.toml").read_text()


def test_default_scenario_loads() -> None:
    sc = load_scenario("default")
    assert "default" in scenario_names()
    assert sc.org.people >= 50 and len(sc.org.teams) >= 5


@pytest.mark.parametrize(
    ("edit", "field"),
    [
        (("people = 60", "people = 3"), "org.people"),
        (("messages = 3500", 'messages = "many"'), "slack.messages"),
        (('name = "default"', 'name = "Bad Name!"'), "name"),
        (("[slack]", "[slack]\nsurprise = 1"), "slack.surprise"),
        (('sales_team = "Sales"', 'sales_team = "Revenue"'), "crm.sales_team"),
        (('support_team = "Customer Support"', 'support_team = "Sales"'), "crm.support_team"),
        (('admin_title = "Chief', 'admin_title = "Chief Happiness'), "crm.admin_title"),
        (('"Finance"', '"Sales"'), "org.teams"),
        (('"Finance"', '"Leadership"'), "org.teams"),
        (("people = 60", "people = 7"), "org.people"),
    ],
)
def test_bad_field_is_reported_with_file_and_field(tmp_path: Path, edit, field) -> None:
    path = tmp_path / "broken.toml"
    path.write_text(GOOD.replace(*edit))
    with pytest.raises(ConfigError) as err:
        load_scenario(path)
    assert err.value.file == str(path)
    assert err.value.field == field
    assert str(path) in str(err.value) and err.value.reason


def test_unparseable_file_and_unknown_name(tmp_path: Path) -> None:
    path = tmp_path / "x.toml"
    path.write_text("name = [unclosed")
    with pytest.raises(ConfigError, match=r"x\.toml"):
        load_scenario(path)
    with pytest.raises(NotFound, match="no scenario 'nope'") as unknown:
        load_scenario("nope")
    assert ".toml: field" not in str(unknown.value)  # a name names no file or field
    with pytest.raises(ConfigError, match=r"missing\.toml: field '<file>': no such scenario file"):
        load_scenario(tmp_path / "missing.toml")


def test_the_smallest_company_a_scenario_allows_builds(tmp_path: Path) -> None:
    """Twelve people in six teams: one-person teams must not break any generator."""
    path = tmp_path / "tiny.toml"
    path.write_text(GOOD.replace("people = 60", "people = 12"))
    image = build_image(str(path), 0)
    world = World(image)
    with world.session() as s:
        assert s.scalar(select(func.count()).select_from(Person)) == 12
        assert s.scalar(select(func.count()).select_from(Message)) > 1000
    world.close()


def test_the_three_scenarios_are_of_different_shapes() -> None:
    shapes = {n: load_scenario(n) for n in ("startup", "default", "enterprise")}
    assert set(shapes) <= set(scenario_names())
    people = [sc.org.people for sc in shapes.values()]
    assert people == sorted(people) and people[0] <= 30 and people[-1] >= 300
    assert len({sc.company for sc in shapes.values()}) == 3
    assert len({sc.email_domain for sc in shapes.values()}) == 3
    assert len({sc.date.date() for sc in shapes.values()}) == 3
    assert shapes["enterprise"].crm.accounts >= 1000 and shapes["enterprise"].crm.contacts >= 3000


@pytest.mark.parametrize(
    ("name", "people", "teams", "accounts"),
    [("startup", 25, 5, 40), ("enterprise", 300, 11, 1000)],
)
def test_a_scenario_world_has_the_shape_its_file_asks_for(name, people, teams, accounts) -> None:
    sc = load_scenario(name)
    world = World(world_image(name, 0))
    with world.session() as s:
        assert s.scalar(select(func.count()).select_from(Person)) == people
        assert s.scalar(select(func.count()).select_from(Team)) == teams  # with Leadership
        assert s.scalar(select(func.count()).select_from(Account)) == accounts
        assert s.scalar(select(func.count()).select_from(Contact)) >= sc.crm.contacts * 0.9
        assert s.scalar(select(func.count()).select_from(Opportunity)) >= sc.crm.opportunities * 0.9
        emails = s.scalars(select(Person.email)).all()
        assert all(e.endswith(f"@{sc.email_domain}") for e in emails)
    assert world.image.start == sc.date
    world.close()
