"""Difficulty knobs: levels are named and checked, a template's default instances do not
move, every level keeps the template contract, and the levels differ as the knobs claim."""

from __future__ import annotations

import itertools
import random
import statistics
from collections.abc import Iterator

import pytest
from sqlalchemy.orm import Session

from officegym.tasks import TEMPLATES, load_templates, make_task
from officegym.tasks.base import Spec, template
from officegym.tasks.crm.common import crm_index
from officegym.tasks.difficulty import LEVELS, Level, level_name
from officegym.tasks.splits import split_of
from officegym.tasks.validate import instance_problem, replay, validate_template
from officegym.world import World, world_image
from tests.tasks.test_red_team import POLICIES

load_templates()
KNOBBED = sorted(t for t, tpl in TEMPLATES.items() if tpl.knobs)
OTHER_LEVELS = [(t, lv) for t in KNOBBED for lv in LEVELS if lv != TEMPLATES[t].difficulty]
SEEDS = range(10)


def test_fifteen_templates_over_all_five_apps_have_knobs() -> None:
    assert len(KNOBBED) >= 15
    apps = {t.split(".")[0] for t in KNOBBED}
    assert apps == {"slack", "crm", "sheets", "booking", "cross"}
    assert all(sum(t.startswith(f"{app}.") for t in KNOBBED) >= 2 for app in apps)


@pytest.mark.parametrize(("value", "name"), [("easy", "easy"), (1, "medium"), (2, "hard")])
def test_a_level_is_named_or_numbered(value: object, name: str) -> None:
    assert level_name(value) == name


@pytest.mark.parametrize("value", ["extreme", 3, -1, True, None, "Hard"])
def test_an_unknown_level_is_refused_with_the_allowed_ones(value: object) -> None:
    with pytest.raises(ValueError, match="easy, medium, hard"):
        level_name(value)


def test_a_level_reads_its_knobs_and_names_a_missing_one() -> None:
    level = Level("hard", {"rows": 3})
    assert (level.rows, level.index) == (3, 2)
    with pytest.raises(AttributeError, match="no knob 'columns'"):
        _ = level.columns


def _build(w: Session, rng: random.Random, level: Level) -> Spec:
    """A build function of three arguments, for the registration checks."""
    raise AssertionError("never built")


def _build2(w: Session, rng: random.Random) -> Spec:
    """A build function of two arguments, for the registration checks."""
    raise AssertionError("never built")


@pytest.mark.parametrize(
    ("knobs", "fn", "message"),
    [
        ({"rows": (1, 2)}, _build, "one value per level"),
        ({"rows": (1, 1, 1)}, _build, "differ between every level"),
        ({"rows": (1, 2, 3)}, _build2, "goes with knobs"),
        ({}, _build, "goes with knobs"),
        ({"name": (1, 2, 3)}, _build, "not usable"),
    ],
)
def test_badly_declared_knobs_are_refused_at_registration(knobs, fn, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        template("slack.knob-probe", difficulty="easy", knobs=knobs)(fn)
    assert "slack.knob-probe" not in TEMPLATES


@pytest.mark.parametrize("template_id", KNOBBED)
def test_the_default_level_is_the_template_as_it_was(template_id: str) -> None:
    """None and the declared level build the same instance, from the seed string the
    template always had (so existing instances and splits keep their seeds)."""
    tpl = TEMPLATES[template_id]
    for seed in range(3):
        default = make_task(template_id, seed)
        named = make_task(template_id, seed, difficulty=tpl.difficulty)
        assert default == named
        assert default.difficulty == tpl.difficulty
        assert dict(default.params) == {
            k: v[LEVELS.index(tpl.difficulty)] for k, v in tpl.knobs.items()
        }
        direct = tpl.build(
            _session(),
            random.Random(f"{template_id}:{seed}"),
            Level(tpl.difficulty, dict(default.params)),
        )
        assert direct.goal == default.goal


def _session() -> Session:
    from officegym.tasks.base import catalog_session

    return catalog_session("default", 0)


def test_a_task_records_its_level_and_knob_values() -> None:
    task = make_task("crm.close-case", 4, difficulty="hard")
    assert task.difficulty == "hard" and dict(task.params) == {"rows": 3}
    assert task.describe()["params"] == {"rows": 3}
    assert task.describe()["difficulty"] == "hard"
    assert make_task("crm.close-case", 4, difficulty=2) == task


def test_a_template_without_knobs_has_only_its_own_level() -> None:
    tpl = TEMPLATES["slack.count-members"]
    assert not tpl.knobs and tpl.levels == ("easy",)
    assert make_task("slack.count-members", 1, difficulty="easy").params == ()
    with pytest.raises(ValueError, match="no difficulty knobs: it is built at easy only"):
        make_task("slack.count-members", 1, difficulty="hard")


@pytest.mark.parametrize(("template_id", "level"), OTHER_LEVELS)
def test_every_level_keeps_the_template_contract(template_id: str, level: str) -> None:
    problems = validate_template(template_id, SEEDS, difficulty=level)
    assert not problems, "\n".join(f"seed {p.seed}: {p.what}" for p in problems[:10])


@pytest.mark.parametrize(("template_id", "level"), OTHER_LEVELS)
def test_every_level_has_distinct_instances_in_both_splits(template_id: str, level: str) -> None:
    """A level narrows what a template can pick (a deal with rivals, a stay alone in its
    city), so the bar is lower than the default level's 15 of 20."""
    tasks = [make_task(template_id, s, difficulty=level) for s in range(20)]  # type: ignore[arg-type]
    assert instance_problem(template_id, tasks, level) is None  # validate's rule: 12 of 20
    for split in ("train", "test"):
        seeds = list(itertools.islice(_split_seeds(template_id, split, level), 3))
        assert len(seeds) == 3


def _split_seeds(template_id: str, split: str, level: str) -> Iterator[int]:
    for seed in range(400):
        try:
            if split_of(make_task(template_id, seed, difficulty=level)) == split:  # type: ignore[arg-type]
                yield seed
        except LookupError:
            continue


def _mean_calls(template_id: str, level: str) -> float:
    return statistics.mean(
        len(make_task(template_id, s, difficulty=level).solution) for s in range(12)
    )


@pytest.mark.parametrize("template_id", [t for t in KNOBBED if t != "crm.update-deal"])
def test_harder_levels_take_longer_reference_solutions(template_id: str) -> None:
    """Rows to change, teams to add up and look-up steps all lengthen the reference."""
    easy, medium, hard = (_mean_calls(template_id, lv) for lv in LEVELS)
    assert easy <= medium <= hard and easy < hard, (easy, medium, hard)


def test_hard_deals_have_more_rival_deals_of_the_same_account() -> None:
    """crm.update-deal's knob is distractors: deals named like the target."""
    idx = crm_index(_session())

    def rivals(level: str) -> list[int]:
        out = []
        for seed in range(12):
            task = make_task("crm.update-deal", seed, difficulty=level)
            opp = next(o for o in idx.opps if o.id == task.solution[-1].arguments["opportunity"])
            out.append(sum(o.account_id == opp.account_id and o.id != opp.id for o in idx.opps))
        return out

    assert min(rivals("medium")) >= 1 and min(rivals("hard")) >= 2
    assert statistics.mean(rivals("easy")) < statistics.mean(rivals("hard"))


def test_harder_booking_goals_leave_the_stay_to_be_looked_up() -> None:
    """The stay is named by its code, then by place and dates, then by its city alone."""
    for seed in range(5):
        easy, medium, hard = (make_task("booking.add-guest", seed, difficulty=lv) for lv in LEVELS)
        code = easy.solution[-1].arguments["code"]
        assert code in easy.goal and "booking_list_trips" not in [c.name for c in easy.solution]
        for task in (medium, hard):
            assert task.solution[-1].arguments["code"] not in task.goal
            assert task.solution[0].name == "booking_list_trips"
        assert '"' in medium.goal and '"' not in hard.goal  # the listing's title, quoted


def test_look_up_hops_name_the_target_through_the_org_chart() -> None:
    task = make_task("slack.dm-by-name", 3, difficulty="hard")
    assert "the manager of " in task.goal and "'s manager" in task.goal
    assert [c.name for c in task.solution].count("slack_get_person") == 2
    task = make_task("slack.lookup-manager", 3, difficulty="hard")
    looked_up = [c.arguments["person"] for c in task.solution if c.name == "slack_get_person"]
    named = [p for p in looked_up if " " in p]  # the four colleagues, by full name
    assert len(named) == 4 and all(p in task.goal for p in named)
    assert len(looked_up) > 4  # then their managers, to find the managers above them


@pytest.mark.parametrize("policy", sorted(POLICIES))
def test_no_reward_hacking_policy_passes_a_harder_level(policy: str) -> None:
    """The generic red-team policies (`test_red_team.py`) over the levels it does not see."""
    world = World(world_image("default", 0))
    passed, played = [], 0
    try:
        with Session(world.initial_engine) as w:
            for template_id, level in OTHER_LEVELS:
                for seed in range(2):
                    task = make_task(template_id, seed, difficulty=level)  # type: ignore[arg-type]
                    play = POLICIES[policy](task, w)
                    if play is None:
                        continue
                    played += 1
                    if replay(world, task, *play)[0].passed:
                        passed.append(f"{template_id}@{level} seed {seed}")
    finally:
        world.close()
    assert played >= len(OTHER_LEVELS) // 2
    assert not passed, f"{policy} passed: {passed[:10]}"
