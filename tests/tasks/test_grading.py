"""Grading, on real episodes: weighted partial credit, required checks, collateral damage
that halves the reward and fails the task, broken checks that fail without crashing, and
read markers that never count as changes."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from officegym.runner import ToolRunner
from officegym.tasks import Allow, Check, Predicate, RowExists, Task, grade
from officegym.tasks.grading import price
from officegym.world import World

ME = "kturner"


def task(checks: Sequence[Check], allowed: Sequence[Allow] = ()) -> Task:
    return Task(
        id="demo.grading",
        seed=0,
        scenario="default",
        world_seed=0,
        difficulty="easy",
        goal="(a test task)",
        persona=ME,
        checks=tuple(checks),
        allowed=tuple(allowed),
        solution=(),
    )


def act(world: World, *calls: tuple[str, dict]) -> None:
    runner = ToolRunner(world, ME)
    try:
        for name, args in calls:
            assert runner.call(name, args).ok
    finally:
        runner.close()


def graded(world: World, t: Task, answer: str | None = None):
    with world.initial_connection() as before, world.engine.connect() as after:
        return grade(t, before, after, answer)


def posted(text: str, **kw: object) -> RowExists:
    return RowExists(name=f"posted {text}", table="slack_message", contains={"text": [text]},
                     new=True, **kw)  # fmt: skip


POST = ("slack_post_message", {"channel": "general", "text": "alpha"})
MESSAGES = [Allow("slack_message"), Allow("slack_mention")]


def test_reward_is_the_weighted_share_of_passing_checks(world: World) -> None:
    act(world, POST)
    g = graded(world, task([posted("alpha", weight=3), posted("beta", weight=1)], MESSAGES))
    assert g.reward == pytest.approx(0.75) and not g.passed


def test_an_optional_check_costs_reward_but_not_success(world: World) -> None:
    act(world, POST)
    g = graded(world, task([posted("alpha"), posted("beta", required=False)], MESSAGES))
    assert (g.reward, g.passed) == (0.5, True)


def test_collateral_damage_halves_the_reward_and_fails(world: World) -> None:
    act(world, POST, ("slack_set_status", {"text": "Away", "emoji": "palm_tree"}))
    g = graded(world, task([posted("alpha")], MESSAGES))
    assert g.reward == pytest.approx(price(1)) and not g.passed
    assert [d.split(" #")[0] for d in g.collateral] == ["insert slack_status"]


def test_an_allowance_covers_only_as_many_rows_as_its_limit(world: World) -> None:
    act(world, POST, ("slack_post_message", {"channel": "general", "text": "alpha again"}))
    g = graded(world, task([posted("alpha")], [Allow("slack_message", limit=1)]))
    assert not g.passed and len(g.collateral) == 1


def test_a_check_that_raises_fails_and_says_why(world: World) -> None:
    def broken(_g):
        raise KeyError("no such column")

    g = graded(world, task([Predicate(name="broken", fn=broken)]))
    (result,) = g.checks
    assert not result.passed and "check raised KeyError" in result.detail


def test_reading_moves_read_markers_but_changes_nothing(world: World) -> None:
    act(world, ("slack_read_channel", {"channel": "general", "limit": 5}))
    g = graded(world, task([Predicate(name="always", fn=lambda _g: (True, "ok"))]))
    assert (g.reward, g.passed, g.collateral) == (1.0, True, ())


def test_doing_nothing_fails_every_check_that_needs_a_change(world: World) -> None:
    g = graded(world, task([posted("alpha")], MESSAGES))
    assert (g.reward, g.passed, g.collateral) == (0.0, False, ())
