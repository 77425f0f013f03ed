"""Every template builds on every scenario's world and its reference solution passes
there (a template that declares `needs` may be too big for the 25-person startup, and
only for it), while doing nothing still scores 0 (the default world is held to the whole
contract by test_templates.py). One live world per scenario serves every template."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from officegym.seed_data.scenario import SCENARIO_DIR, scenario_names
from officegym.tasks import TEMPLATES, grade, load_templates, make_task
from officegym.tasks.validate import play
from officegym.world import World, world_image

load_templates()
SEEDS = range(3)
OTHERS = [n for n in scenario_names() if n != "default"]


def test_there_are_scenarios_besides_the_default() -> None:
    assert {"startup", "enterprise"} <= set(OTHERS)


@pytest.fixture(scope="module", params=OTHERS)
def world(request: pytest.FixtureRequest) -> Iterator[World]:
    live = World(world_image(request.param, 0))
    yield live
    live.close()


@pytest.mark.parametrize("template_id", sorted(TEMPLATES))
def test_template_builds_and_its_reference_passes_on_the_scenario(
    world: World, template_id: str
) -> None:
    scenario = world.image.scenario
    needs = TEMPLATES[template_id].needs
    for seed in SEEDS:
        try:
            task = make_task(template_id, seed, scenario, 0)
        except LookupError as exc:
            if needs and scenario == "startup":  # declared: the startup is too small for it
                assert "the world has" in str(exc), f"a bare LookupError: {exc!r}"
                continue
            raise
        graded, errors = play(world, task)
        assert not errors, f"{scenario} seed {seed}: {errors[:3]}"
        failed = [c.name for c in graded.checks if not c.passed] + list(graded.collateral)
        assert (graded.reward, graded.passed) == (1.0, True), f"{scenario} seed {seed}: {failed}"
        world.reset()
        with world.initial_connection() as before, world.engine.connect() as after:
            assert grade(task, before, after, None).reward == 0, f"{scenario} seed {seed}"


@pytest.fixture(scope="module")
def renamed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, World]]:
    """The default world with its CRM teams renamed (Revenue, Customer Success)."""
    text = (SCENARIO_DIR / "default.toml").read_text()
    for old, new in (
        ('name = "default"', 'name = "renamed"'),
        ('"Sales", "Customer Support"', '"Revenue", "Customer Success"'),
        ('sales_team = "Sales"', 'sales_team = "Revenue"'),
        ('support_team = "Customer Support"', 'support_team = "Customer Success"'),
    ):
        assert old in text
        text = text.replace(old, new)
    path = tmp_path_factory.mktemp("scenario") / "renamed.toml"
    path.write_text(text)
    live = World(world_image(str(path), 0))
    yield str(path), live
    live.close()


def test_templates_follow_the_scenarios_crm_teams_whatever_their_names(
    renamed: tuple[str, World],
) -> None:
    """CRM chat lands in #revenue and #customer-success, and every template finds it."""
    path, world = renamed
    for template_id in sorted(TEMPLATES):
        task = make_task(template_id, 0, path, 0)
        graded, errors = play(world, task)
        assert not errors and graded.passed, f"{template_id}: {errors[:2]} {graded.checks}"
    goal = make_task("cross.deal-status-to-channel", 0, path, 0).goal
    assert "sales team's channel" in goal
    solution = make_task("cross.deal-status-to-channel", 0, path, 0).solution
    assert solution[-1].arguments["channel"] == "revenue"


def test_travel_desk_books_only_places_free_on_a_small_world(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    """On the default world shrunk to 30 people two requests share a city and dates, so
    their cheapest place is one listing; the reference must not book it twice (the site
    refuses the second booking)."""
    text = (SCENARIO_DIR / "default.toml").read_text()
    assert "people = 60" in text
    path = tmp_path_factory.mktemp("scenario") / "d30.toml"
    path.write_text(text.replace("people = 60", "people = 30").replace('= "default"', '= "d30"'))
    for seed in range(10):
        stays = [
            (c.arguments["listing_id"], c.arguments["check_in"], c.arguments["check_out"])
            for c in make_task("cross.travel-desk", seed, str(path), 0).solution
            if c.name == "booking_book_stay"
        ]
        for i, (listing, ci, co) in enumerate(stays):
            assert not any(
                other == listing and ci < o_co and o_ci < co for other, o_ci, o_co in stays[:i]
            ), f"seed {seed}: listing {listing} booked twice for {ci}..{co}"
    world = World(world_image(str(path), 0))
    try:
        graded, errors = play(world, make_task("cross.travel-desk", 7, str(path), 0))
    finally:
        world.close()
    assert not errors and graded.passed, errors[:2]
