"""validate's generic policies: undoing the reference's work, keeping only its messages,
and a constant answer's prior, each judged the way validate judges them."""

from __future__ import annotations

import random

import pytest
from sqlalchemy import text
from sqlalchemy.orm import Session

from officegym.tasks import Spec, make_task
from officegym.tasks.facts import integer
from officegym.tasks.policies import (
    MESSAGE_TOOLS,
    REPORTED_ONLY,
    extra_damage,
    messages_only,
    prior_share,
    reference_outcomes,
    typed_in,
    undo_runs,
)
from officegym.tasks.steps import Step
from officegym.tasks.undo import INVERSES, NO_INVERSE
from officegym.tasks.validate import check_template, replay
from officegym.tools import ToolCall, load_tools
from officegym.world import World
from tests.tasks.demo import demo_template, fixed


@pytest.fixture(scope="module")
def world(module_world: World) -> World:
    return module_world


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


def test_validate_fails_a_template_whose_answer_is_a_constant() -> None:
    constant = fixed(
        "A question whose answer is the same on every seed.",
        "How many fingers has a hand? Reply with the number.",
        Step(calls=[ToolCall("slack_list_channels", {})]),
        answer=integer(5),
    )
    with demo_template("demo.constant-answer", constant) as tid:
        report = check_template(tid, range(50), mutate=False)
    assert report.prior == 1.0 and report.prior_seeds == 50
    assert any("most common answer" in p.what for p in report.problems)


def _raises(w: Session, rng: random.Random) -> Spec:
    """A template whose build raises."""
    raise RuntimeError("broken template")


def test_validate_names_the_line_of_a_raising_template_and_an_unknown_tool() -> None:
    with demo_template("demo.raises", _raises) as tid:
        report = check_template(tid, [0], mutate=False)
    [problem] = report.problems
    assert "broken template" in problem.what and "test_policies.py:" in problem.what


def test_validate_reports_an_unknown_tool_in_a_reference_as_such() -> None:
    unknown = fixed(
        "A reference calling a tool that does not exist.",
        "Fly to the moon.",
        Step(calls=[ToolCall("slack_fly_to_moon", {})]),
    )
    with demo_template("demo.unknown-tool", unknown) as tid:
        report = check_template(tid, [0], mutate=False)
    assert any("unknown tool 'slack_fly_to_moon'" in p.what for p in report.problems)


def test_typing_in_what_the_reference_computes_fails(world: World) -> None:
    """Every other formula row of each sheet write typed in as its computed value."""
    for template_id in ("sheets.formula-column", "sheets.summary-sheet"):
        task = make_task(template_id, 0)
        [run] = typed_in(task, reference_outcomes(world, task))
        typed = [
            v
            for c, ref in zip(run.calls, task.solution, strict=True)
            if c != ref
            for row in c.arguments["values"]
            for v in row
            if isinstance(v, int | float)
        ]
        assert typed, template_id  # some formula became a number
        graded, errors = replay(world, task, run.calls, run.answer)
        assert not errors and not graded.passed, template_id
    task = make_task("slack.join-and-post", 0)
    assert typed_in(task, reference_outcomes(world, task)) == []  # no formula to type in


def test_extra_damage_adds_one_write_where_the_allowances_reach(world: World) -> None:
    """One more post where a post is allowed (a thread allowing one reply fails it), and
    one more cell on the row below the used rows of the sheet the reference wrote."""
    task = make_task("slack.triage-help-requests", 0)
    [run] = extra_damage(world, task, reference_outcomes(world, task))
    assert run.calls[-1] == [c for c in task.solution if c.name in MESSAGE_TOOLS][-1]
    graded, errors = replay(world, task, run.calls, run.answer)
    assert not errors and not graded.passed
    task = make_task("sheets.formula-column", 0)
    runs = extra_damage(world, task, reference_outcomes(world, task))
    [cell] = [r.calls[-1] for r in runs]
    assert cell.arguments["values"] == [["extra"]]
    with world.initial_connection() as db:
        below = db.execute(
            text(
                "SELECT count(*) FROM sheets_cell c JOIN sheets_sheet s ON s.id = c.sheet_id "
                "WHERE s.name = 'Orders' AND c.row >= :row"
            ),
            {"row": int(cell.arguments["range"].split("!J")[1])},
        ).scalar()
    assert cell.arguments["range"].startswith("Orders!J") and below == 0
    graded, errors = replay(world, task, runs[-1].calls, runs[-1].answer)
    assert not errors and not graded.passed  # the column's rows are allowed, not below them
    assert graded.collateral == (f"insert sheets_cell #{graded.collateral[0].split('#')[1]}",)


def test_one_announcement_is_one_post(world: World) -> None:
    """An announcement posted twice in the channel costs half: the allowance is the one
    post the goal asks for (the reference's uses it up)."""
    task = make_task("slack.post-channel", 0)
    [post] = [c for c in task.solution if c.name == "slack_post_message"]
    half = ToolCall(post.name, dict(post.arguments))
    graded, errors = replay(world, task, [*task.solution, half], task.answer)
    assert not errors and not graded.passed and graded.reward == 0.5


def test_validate_fails_a_loose_allowance_and_counts_the_policies() -> None:
    """typed-in and extra-damage both fail on a formula template whose allowance is the
    formula column's rows (a cell below them is damage), and extra-damage is no longer
    only reported: it is a failing policy like the others."""
    report = check_template("sheets.formula-column", [0])
    assert report.policies["typed-in"].to_dict() == {"run": 1, "killed": 1, "survived": 0}
    assert report.policies["extra-damage"].to_dict() == {"run": 1, "killed": 1, "survived": 0}
    assert "extra-damage" not in REPORTED_ONLY
    assert report.loose == [] and report.ok
