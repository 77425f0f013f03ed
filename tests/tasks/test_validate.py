"""The validator catches broken templates (so a passing suite means something)."""

from __future__ import annotations

import inspect
import random
import typing

import pytest
from sqlalchemy.orm import Session

from officegym.tasks import RowExists, Spec, make_task
from officegym.tasks.checks import Allow
from officegym.tasks.mutants import mutants
from officegym.tasks.steps import Step
from officegym.tasks.validate import (
    CheckOptions,
    _shared_prefix,
    check_template,
    instance_problem,
    replay,
    state_of,
    validate_template,
)
from officegym.tools import ToolCall
from officegym.world import Checkpoint, World, world_image
from tests.tasks.demo import demo_template, fixed

BROKEN = fixed(
    "A template whose solution does not do what its check wants, and a collateral write.",
    "Post hello in #general.",
    Step(
        calls=[ToolCall("slack_post_message", {"channel": "general", "text": "hello"})],
        checks=[RowExists(name="posted", table="slack_message", where={"text": "never"}, new=True)],
        allowed=[Allow("slack_reaction")],
    ),
)


def test_validator_reports_a_failing_solution_with_its_failed_check() -> None:
    """The reference's own changes are its expected end state (never collateral), so the
    broken check alone fails it: half the weight, the state item passing."""
    with demo_template("demo.broken-check", BROKEN) as tid:
        problems = validate_template(tid, [0])
    text = " ".join(p.what for p in problems)
    assert "reference solution scored 0.5" in text
    assert "posted: 0 matching slack_message row(s), want at least 1" in text  # got/want


def test_validate_templates_options_are_check_templates_keywords_with_their_types() -> None:
    """`validate_template`'s typed options name exactly what `check_template` takes, with
    the same types, so a keyword added there cannot be passed untyped here."""
    params = inspect.signature(check_template).parameters.values()
    hints = typing.get_type_hints(check_template)
    keywords = {p.name: hints[p.name] for p in params if p.kind is p.KEYWORD_ONLY}
    assert keywords == typing.get_type_hints(CheckOptions)


@pytest.mark.parametrize(
    "template_id",
    [
        "cross.renewal-campaign",
        "sheets.pivot-summary",
        "booking.change-flight",
        "crm.advance-stage",
    ],
)
def test_a_mutant_replayed_from_a_checkpoint_ends_as_a_full_replay(template_id: str) -> None:
    """Validation rewinds to a checkpoint taken on the reference's run before the call a
    mutant changes; the grade and the changes must be those of replaying it whole."""
    task = make_task(template_id, 0)
    world = World(world_image("default", 0))
    with world.initial_connection() as initial:
        found = mutants(task, initial)
    found = found[:: max(1, len(found) // 20)]
    shared = [_shared_prefix(task.solution, m.calls) for m in found]
    points: dict[int, Checkpoint | None] = dict.fromkeys(shared)
    replay(world, task, task.solution, task.answer, save=points)
    assert any(n > 0 for n in shared) and all(p is not None for p in points.values())
    for m, n in zip(found, shared, strict=True):
        whole, _ = replay(world, task, m.calls, m.answer)
        changes = state_of(world)
        part, _ = replay(world, task, m.calls, m.answer, start=(n, points[n]))  # type: ignore[arg-type]
        assert (part.to_dict(), state_of(world)) == (whole.to_dict(), changes), m.label
    world.close()


def _needy(w: Session, rng: random.Random) -> Spec:
    """A template whose world never holds what it needs."""
    raise LookupError("the world has no such thing for this template")


def test_a_world_without_what_a_template_needs_skips_it_rather_than_breaking_it() -> None:
    with demo_template("demo.needy", _needy, needs="a thing") as needy:
        skipped = check_template(needy, range(2), mutate=False)
    with demo_template("demo.needless", _needy) as needless:
        broken = check_template(needless, range(2), mutate=False)
    assert skipped.ok and skipped.all_skipped and sorted(skipped.skipped) == [0, 1]
    assert "a thing (the world has no such thing" in skipped.skipped[0]
    assert not broken.ok and not broken.skipped  # no declared need: it must build
    assert "build failed: LookupError" in broken.problems[0].what


def test_too_few_distinct_instances_is_a_validate_problem() -> None:
    same = [make_task("slack.count-members", 0)] * 20
    problem = instance_problem("slack.count-members", same, None)
    assert problem == "only 1 distinct instances (persona, goal) over 20 seeds; want 15"
    varied = [make_task("slack.count-members", s) for s in range(20)]
    assert instance_problem("slack.count-members", varied, None) is None
    assert instance_problem("slack.count-members", same[:19], None) is None  # too few to judge
    assert instance_problem("crm.close-case", same, "hard").endswith("want 12")  # type: ignore[union-attr]
