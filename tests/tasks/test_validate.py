"""The validator catches broken templates (so a passing suite means something)."""

from __future__ import annotations

import random

import pytest
from sqlalchemy.orm import Session

from officegym.tasks import TEMPLATES, RowExists, Spec, make_task, template
from officegym.tasks.checks import Allow
from officegym.tasks.mutants import mutants
from officegym.tasks.validate import _shared_prefix, _state, replay, validate_template
from officegym.tools import ToolCall
from officegym.world import Checkpoint, World, world_image


def _register_broken() -> None:
    if "demo.broken-check" in TEMPLATES:
        return

    @template("demo.broken-check", difficulty="easy", apps=["slack"])
    def broken(w: Session, rng: random.Random) -> Spec:
        """A template whose solution does not do what its check wants, and a collateral write."""
        return Spec(
            goal="Post hello in #general.",
            persona="kturner",
            checks=[
                RowExists(name="posted", table="slack_message", where={"text": "never"}, new=True)
            ],
            allowed=[Allow("slack_reaction")],
            solution=[ToolCall("slack_post_message", {"channel": "general", "text": "hello"})],
        )


def test_validator_reports_a_failing_solution_with_its_failed_check() -> None:
    """The reference's own changes are its expected end state (never collateral), so the
    broken check alone fails it: half the weight, the state item passing."""
    _register_broken()
    try:
        problems = validate_template("demo.broken-check", [0])
    finally:
        TEMPLATES.pop("demo.broken-check")
    text = " ".join(p.what for p in problems)
    assert "reference solution scored 0.5" in text
    assert "posted: 0 matching slack_message row(s), want at least 1" in text  # got/want


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
        changes = _state(world)
        part, _ = replay(world, task, m.calls, m.answer, start=(n, points[n]))  # type: ignore[arg-type]
        assert (part.to_dict(), _state(world)) == (whole.to_dict(), changes), m.label
    world.close()
