"""validate's generic policies: undoing the reference's work, keeping only its messages,
and a constant answer's prior, each judged the way validate judges them."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from sqlalchemy.orm import Session

from officegym.tasks import TEMPLATES, Spec, make_task, template
from officegym.tasks.policies import messages_only, prior_share, undo_runs
from officegym.tasks.undo import INVERSES, NO_INVERSE
from officegym.tasks.validate import check_template, replay
from officegym.tools import ToolCall, load_tools
from officegym.world import World, world_image


@pytest.fixture(scope="module")
def world() -> Iterator[World]:
    w = World(world_image("default", 0))
    yield w
    w.close()


@pytest.mark.parametrize(
    ("template_id", "inverse"),
    [
        ("cross.book-requested-trip", "booking_cancel_stay"),
        ("slack.react-message", "slack_remove_reaction"),
        ("crm.update-deal", "crm_update_opportunity"),
        ("sheets.sort-range", "sheets_write_range"),
    ],
)
def test_undoing_each_write_of_the_reference_fails(
    world: World, template_id: str, inverse: str
) -> None:
    task = make_task(template_id, 0)
    runs, unpaired = undo_runs(world, task)
    assert runs and not unpaired
    assert any(r.calls[len(task.solution)].name == inverse for r in runs)
    for run in runs:
        graded, errors = replay(world, task, run.calls, run.answer)
        assert not errors, run.label
        assert not graded.passed, run.label


def test_every_write_tool_has_an_inverse_or_a_reason_it_has_none() -> None:
    writes = {name for name, t in load_tools().items() if t.kind == "write"}
    assert writes <= INVERSES.keys() | NO_INVERSE.keys()
    assert not INVERSES.keys() & NO_INVERSE.keys()


def test_the_reference_messages_without_its_work_fail(world: World) -> None:
    task = make_task("cross.book-requested-trip", 0)
    [run] = messages_only(task)
    assert [c.name for c in run.calls] == ["slack_reply_in_thread"]
    graded, errors = replay(world, task, run.calls, run.answer)
    assert not errors and not graded.passed
    assert messages_only(make_task("slack.post-channel", 0)) == []  # its work is the message


def test_prior_share_is_the_most_common_answer_share() -> None:
    assert prior_share(["$0", "$0", "$5", "$7"]) == 0.5
    assert prior_share([None, None]) is None


def _register_constant() -> None:
    if "demo.constant-answer" in TEMPLATES:
        return

    @template("demo.constant-answer", difficulty="easy", apps=["slack"])
    def constant(w: Session, rng: random.Random) -> Spec:
        """A question whose answer is the same on every seed."""
        from officegym.tasks.facts import integer

        return Spec(
            goal="How many fingers has a hand? Reply with the number.",
            persona="kturner",
            checks=[],
            allowed=[],
            solution=[ToolCall("slack_list_channels", {})],
            answer=integer(5),
        )


def test_validate_fails_a_template_whose_answer_is_a_constant() -> None:
    _register_constant()
    try:
        report = check_template("demo.constant-answer", range(50), mutate=False)
    finally:
        TEMPLATES.pop("demo.constant-answer")
    assert report.prior == 1.0 and report.prior_seeds == 50
    assert any("most common answer" in p.what for p in report.problems)


def _register_raising() -> None:
    @template("demo.raises", difficulty="easy", apps=["slack"])
    def raises(w: Session, rng: random.Random) -> Spec:
        """A template whose build raises."""
        raise RuntimeError("broken template")


def test_validate_names_the_line_of_a_raising_template_and_an_unknown_tool() -> None:
    _register_raising()
    try:
        report = check_template("demo.raises", [0], mutate=False)
    finally:
        TEMPLATES.pop("demo.raises")
    [problem] = report.problems
    assert "broken template" in problem.what and "test_policies.py:" in problem.what


def test_validate_reports_an_unknown_tool_in_a_reference_as_such() -> None:
    @template("demo.unknown-tool", difficulty="easy", apps=["slack"])
    def unknown(w: Session, rng: random.Random) -> Spec:
        """A reference calling a tool that does not exist."""
        return Spec(
            goal="Fly to the moon.",
            persona="kturner",
            checks=[],
            allowed=[],
            solution=[ToolCall("slack_fly_to_moon", {})],
        )

    try:
        report = check_template("demo.unknown-tool", [0], mutate=False)
    finally:
        TEMPLATES.pop("demo.unknown-tool")
    assert any("unknown tool 'slack_fly_to_moon'" in p.what for p in report.problems)
