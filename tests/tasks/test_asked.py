"""Grading ask-the-requester tasks: the value must come from the conversation. Acting on a
guess fails; acting with the right value fails too without asking, before being told, or
after a question that got no answer; the reference passes. Replays go through
`officegym.tasks.validate.replay`, where the simulated requester answers as in the envs."""

from __future__ import annotations

import dataclasses

import pytest

from officegym.tasks import Task, make_task
from officegym.tasks.validate import replay
from officegym.tools import ToolCall
from officegym.world import World

TEMPLATES = (
    "crm.ask-deal-amount", "crm.ask-close-date", "crm.ask-invoice-contact",
    "sheets.ask-expense-amount", "booking.ask-trip-nights", "slack.ask-event-date",
    "slack.ask-who-gets-it",
)  # fmt: skip


def _asking(task: Task) -> tuple[list[ToolCall], list[ToolCall]]:
    """(the question and the read of its reply, the rest of the reference solution)."""
    return list(task.solution[:2]), list(task.solution[2:])


def _failed(grade) -> set[str]:
    return {c.name for c in grade.checks if not c.passed}


@pytest.mark.parametrize("template_id", TEMPLATES)
def test_the_reference_asks_and_passes(world: World, template_id: str) -> None:
    task = make_task(template_id, 1)
    graded, errors = replay(world, task, task.solution, task.answer)
    assert errors == [] and (graded.reward, graded.passed) == (1.0, True), graded.to_dict()


@pytest.mark.parametrize("template_id", TEMPLATES)
def test_acting_without_asking_fails_even_with_the_right_value(
    world: World, template_id: str
) -> None:
    task = make_task(template_id, 2)
    _, acting = _asking(task)
    graded, errors = replay(world, task, acting, task.answer)
    assert errors == []
    assert not graded.passed
    asked = {c.name for c in task.checks if c.name.startswith("asked ")}
    assert {n for n in _failed(graded) if not n.startswith("state: ")} == asked


@pytest.mark.parametrize("template_id", TEMPLATES)
def test_acting_before_being_told_fails(world: World, template_id: str) -> None:
    task = make_task(template_id, 3)
    asking, acting = _asking(task)
    graded, _ = replay(world, task, [*acting, *asking], task.answer)
    assert not graded.passed
    [asked] = [c for c in graded.checks if c.name.startswith("asked ")]
    assert not asked.passed and "before being told" in asked.detail


@pytest.mark.parametrize("template_id", TEMPLATES)
def test_an_unanswered_question_does_not_count(world: World, template_id: str) -> None:
    task = make_task(template_id, 4)
    [question, read], acting = _asking(task)
    off_topic = dataclasses.replace(
        question,
        arguments={**question.arguments, "text": "Could you tell me where the printer is?"},
    )
    graded, _ = replay(world, task, [off_topic, read, *acting], task.answer)
    assert not graded.passed
    [asked] = [c for c in graded.checks if c.name.startswith("asked ")]
    assert "never stated" in asked.detail


GUESSES = {  # template id -> (tool, argument, a wrong value for the seed's instance)
    "crm.ask-deal-amount": ("crm_update_opportunity", "amount", lambda v: v + 250),
    "crm.ask-close-date": (
        "crm_update_opportunity",
        "close_date",
        lambda v: v[:-2] + ("01" if not v.endswith("01") else "02"),
    ),
    "sheets.ask-expense-amount": ("sheets_write_range", "values", lambda v: [[v[0][0] + 1]]),
}


@pytest.mark.parametrize("template_id", sorted(GUESSES))
def test_a_guessed_value_fails_after_asking(world: World, template_id: str) -> None:
    task = make_task(template_id, 5)
    tool, arg, wrong = GUESSES[template_id]
    calls = [
        dataclasses.replace(c, arguments={**c.arguments, arg: wrong(c.arguments[arg])})
        if c.name == tool
        else c
        for c in task.solution
    ]
    assert calls != list(task.solution)
    graded, errors = replay(world, task, calls, task.answer)
    assert errors == [] and not graded.passed
    assert not any(c.name.startswith("asked ") for c in graded.checks if not c.passed)


def test_guessing_is_hopeless_the_fact_is_drawn_from_many_values() -> None:
    for template_id in ("crm.ask-deal-amount", "crm.ask-close-date", "sheets.ask-expense-amount",
                        "booking.ask-trip-nights", "slack.ask-event-date",
                        "slack.ask-who-gets-it"):  # fmt: skip
        facts = {make_task(template_id, seed).hidden.fact.values for seed in range(200)}  # type: ignore[union-attr]
        assert len(facts) >= 40, (template_id, len(facts))  # a guess is right 1 time in 40 at best
