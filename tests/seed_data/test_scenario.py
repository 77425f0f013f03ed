"""Scenario files are validated; a bad one names the file, the field and the reason."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import func, select

from officegym.apps.org.models import Person
from officegym.apps.slack.models import Message
from officegym.errors import ConfigError
from officegym.seed_data import build_image
from officegym.seed_data.scenario import load_scenario, scenario_names
from officegym.world import World

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
    with pytest.raises(ConfigError, match="no scenario 'nope'"):
        load_scenario("nope")


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
