"""Mutation testing of reference solutions: each kind of near miss is built where it
applies, a grader too lenient to kill one is reported, a mutant that changes nothing is
equivalent, and a template may declare what it cannot tell apart, with a reason."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from officegym import cli
from officegym.tasks import Equivalent, Free, RowExists, make_task
from officegym.tasks.checks import Allow
from officegym.tasks.facts import integer
from officegym.tasks.formula_ranges import range_mutants
from officegym.tasks.mutants import KINDS, mutants
from officegym.tasks.steps import Step
from officegym.tasks.validate import check_template, replay
from officegym.tools import ToolCall
from officegym.world import World
from tests.tasks.demo import Build, demo_template, fixed


@pytest.fixture(scope="module")
def world(module_world: World) -> World:
    return module_world


def kinds_of(template_id: str, world: World, seed: int = 0) -> set[str]:
    with world.initial_connection() as conn:
        return {m.kind for m in mutants(make_task(template_id, seed), conn)}


def test_each_kind_of_mutant_is_built_by_some_template(world: World) -> None:
    built = set()
    for tid in ("slack.invite-team", "crm.update-deal", "slack.create-channel",
                "crm.close-case", "slack.count-members", "cross.pipeline-to-manager",
                "crm.close-lost", "crm.follow-up-task", "slack.post-channel",
                "slack.onboard-new-hire", "sheets.summary-sheet"):  # fmt: skip
        built |= kinds_of(tid, world)
    assert built == set(KINDS)


def test_a_quoted_text_gets_word_mutants_and_a_message_fact_mutants(world: World) -> None:
    assert {"text.drop-word", "text.add-words"} <= kinds_of("crm.close-case", world)
    assert "text.drop-word" not in kinds_of("slack.post-channel", world)
    assert "text.drop-fact" in kinds_of("slack.post-channel", world)


def test_mutants_of_a_question_are_only_of_its_answer(world: World) -> None:
    assert {k.split(".")[0] for k in kinds_of("slack.lookup-manager", world)} == {"answer"}


def test_equivalent_needs_a_known_kind_and_a_reason() -> None:
    with pytest.raises(ValueError, match="unknown mutant kind"):
        Equivalent("text.rewrite", "wording")
    with pytest.raises(ValueError, match="reason"):
        Equivalent("text.drop-fact", " ")


LENIENT = "demo.lenient-post"


def _lenient(declare: bool) -> Build:
    """A template whose grader reads no fact: any post in #general passes (its text
    declared free, so the end state does not pin the wording either)."""
    posted = RowExists(name="posted", table="slack_message", where={"channel_id": 1}, new=True)
    post = ToolCall("slack_post_message", {"channel": "general", "text": "7 people signed up."})
    excuse = [Equivalent("text.drop-fact", "demo: the count is not graded")]

    return fixed(
        "Post the count of 7 in #general (graded leniently on purpose).",
        "Tell #general that 7 people signed up.",
        Step(
            calls=[post],
            checks=[posted],
            allowed=[Allow("slack_message", limit=2), Allow("slack_mention")],
            equivalent=excuse if declare else [],
            free=[Free("slack_message", ("text",), "demo: the post's wording is not graded")],
        ),
    )


@pytest.mark.parametrize("declare", [False, True])
def test_a_lenient_grader_is_reported_unless_it_declares_why(declare: bool) -> None:
    with demo_template(LENIENT, _lenient(declare)):
        report = check_template(LENIENT, [0])
    survived = [p.what for p in report.problems if "mutant survived" in p.what]
    if declare:
        assert "without '7'" not in " ".join(survived)
        assert report.mutation.declared >= 1
        assert report.declared == {
            "text.drop-fact slack_post_message.text": "demo: the count is not graded"
        }
    else:
        assert any("without '7'" in s for s in survived)
        assert report.mutation.survived >= 1 and report.mutation.score < 1


def test_a_mutant_that_changes_nothing_is_equivalent_not_a_survivor() -> None:
    report = check_template("slack.invite-team", range(2))
    assert report.ok and report.mutation.equivalent > 0  # inviting someone already there


def test_validate_prints_the_mutation_report_as_json() -> None:
    result = CliRunner().invoke(
        cli.main,
        ["validate", "--seeds", "2", "--json", "slack.count-members", "cross.pipeline-to-manager"],
        catch_exceptions=False,
    )
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    levels = {f"cross.pipeline-to-manager@{lv}" for lv in ("easy", "medium", "hard")}
    assert set(report["templates"]) == {"slack.count-members", *levels}  # each level of knobs
    counts = report["apps"]["all"]
    assert counts["built"] == counts["killed"] + counts["equivalent"] + counts["declared"]
    assert counts["survived"] == 0 and counts["score"] == 1.0
    assert report["templates"]["cross.pipeline-to-manager@medium"]["declared"]


def test_validate_gives_the_same_report_in_one_process_or_several() -> None:
    """--jobs spreads templates over processes (longest first); the report keeps its order
    and its counts."""
    args = ["validate", "--seeds", "1", "--json", "crm.close-lost", "slack.invite-team"]
    one, two = (
        CliRunner().invoke(cli.main, [*args, "--jobs", n], catch_exceptions=False)
        for n in ("1", "2")
    )
    assert one.exit_code == two.exit_code == 0, (one.output, two.output)
    first, second = json.loads(one.stdout), json.loads(two.stdout)
    assert first == second and list(first["templates"]) == ["crm.close-lost", "slack.invite-team"]
    assert first["apps"]["all"]["built"] > 0


def test_an_answer_fact_keeps_its_reference_text() -> None:
    task = make_task("slack.count-members", 0)
    assert task.expects == integer(int(task.answer or 0), alone=True,
                                   ignoring=task.expects.ignoring)  # fmt: skip


def test_validate_holds_templates_to_the_contract_on_another_world() -> None:
    args = ["validate", "--seeds", "2", "--json", "--scenario", "startup", "--world-seed", "1"]
    result = CliRunner().invoke(cli.main, [*args, "crm.close-lost"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert (report["scenario"], report["world_seed"]) == ("startup", 1)
    assert report["templates"]["crm.close-lost"]["ok"]
    assert report["apps"]["all"]["built"] > 0 and report["apps"]["all"]["survived"] == 0
    bad = CliRunner().invoke(cli.main, ["validate", "--scenario", "nope", "crm.close-lost"])
    assert bad.exit_code == 2 and "no scenario 'nope'" in bad.output


def test_a_formula_s_ranges_move_one_step_at_each_side() -> None:
    """Each side of a range shrinks by one; a filled column moves as one; a range that
    would be empty stays as it was."""
    rows = [["Total", None, "=SUM(C2:C11)"], ["x", "=MAX($B$2:B2)"]]
    found = {label: (kind, new) for kind, label, new in range_mutants(rows)}
    assert found["range 1 bottom -1"] == (
        "range.shrink",
        [["Total", None, "=SUM(C2:C10)"], ["x", "=MAX($B$2:B2)"]],
    )
    assert found["range 1 top +1"][1] == [["Total", None, "=SUM(C3:C11)"], ["x", "=MAX($B$2:B2)"]]
    assert {k for k, _ in found.values()} == {"range.shrink"}
    assert "range 1 left +1" not in found  # one column wide: nothing left


@pytest.mark.parametrize("seed", [2, 10])
def test_every_range_one_short_or_too_far_fails_a_max(world: World, seed: int) -> None:
    """A MAX over a range one row short of the data, at either end of any of its ranges
    (one per region and all four together), fails: the edge rounds put the maximum
    there (by chance it was there in a fraction of instances)."""
    task = make_task("sheets.summary-sheet", seed)
    assert "MAX(" in json.dumps([c.arguments for c in task.solution])
    with world.initial_connection() as initial:
        moved = [m for m in mutants(task, initial) if m.kind.startswith("range.")]
    assert len(moved) >= 4
    for m in moved:
        graded, _ = replay(world, task, m.calls, m.answer)
        assert not graded.passed, m.label
