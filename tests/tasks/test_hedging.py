"""Graders cannot be talked round: a message or answer that hedges (names rival values
beside the right one, spreads candidates over several messages), or states a wrong value
that contains the right one, does not pass — while the reference solution does.

Each test rewrites the last message of a template's reference solution and replays it
on a fresh world, over many seeds."""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Iterator

import pytest

from officegym.tasks import make_task
from officegym.tasks.base import Task
from officegym.tasks.slack.said import Said
from officegym.tasks.validate import replay
from officegym.tools import ToolCall
from officegym.world import World, world_image

SEEDS = range(12)


@pytest.fixture(scope="module")
def world() -> Iterator[World]:
    w = World(world_image("default", 0))
    yield w
    w.close()


def with_text(task: Task, text: str) -> list[ToolCall]:
    """The reference solution with its last call's text replaced."""
    *calls, last = task.solution
    return [*calls, dataclasses.replace(last, arguments={**last.arguments, "text": text})]


def rival(task: Task) -> str:
    """A wrong value of the kind the task's message must state."""
    says = next(c for c in task.checks if isinstance(c, Said)).says
    if says.amount is not None:
        return f"${says.amount + 7_500:,}"
    if says.date is not None:
        return (says.date + dt.timedelta(days=3)).isoformat()
    return says.none_of[0]


def passes(world: World, task: Task, calls: list[ToolCall]) -> bool:
    grade, errors = replay(world, task, calls, task.answer)
    assert not errors, errors
    return grade.passed


@pytest.mark.parametrize("seed", SEEDS)
def test_answering_a_deal_question_with_a_rival_value_beside_the_right_one_fails(
    world: World, seed: int
) -> None:
    task = make_task("cross.answer-deal-question", seed)
    reference = task.solution[-1].arguments["text"]
    assert passes(world, task, list(task.solution))
    assert not passes(world, task, with_text(task, f"{reference} (or maybe {rival(task)})"))


@pytest.mark.parametrize("seed", SEEDS)
def test_posting_every_stage_with_the_right_amount_fails(world: World, seed: int) -> None:
    task = make_task("cross.deal-status-to-channel", seed)
    said = next(c for c in task.checks if isinstance(c, Said)).says
    every_stage = ", ".join(["Prospecting", "Proposal", "Negotiation", "Closed Won"])
    assert not passes(world, task, with_text(task, f"Stage: {every_stage}; ${said.amount:,}"))


@pytest.mark.parametrize("seed", SEEDS)
def test_spreading_candidates_over_two_messages_fails(world: World, seed: int) -> None:
    task = make_task("cross.deal-status-to-channel", seed)
    post = task.solution[-1]
    extra = dataclasses.replace(post, arguments={**post.arguments, "text": rival(task)})
    grade, _ = replay(world, task, [*task.solution, extra], None)
    failed = {c.name for c in grade.checks if not c.passed}
    assert not grade.passed and "stage and amount posted in #sales" in failed


@pytest.mark.parametrize("seed", SEEDS)
def test_a_wrong_total_that_contains_the_right_one_fails(world: World, seed: int) -> None:
    task = make_task("cross.pipeline-to-manager", seed)
    text = task.solution[-1].arguments["text"]
    assert passes(world, task, with_text(task, text.rstrip(".")))
    assert not passes(world, task, with_text(task, text.replace("$", "$1,", 1)))


@pytest.mark.parametrize("seed", range(4))
def test_a_dm_to_a_group_with_the_manager_in_it_is_not_a_dm_to_the_manager(
    world: World, seed: int
) -> None:
    task = make_task("cross.escalate-and-tell-manager", seed)
    *calls, dm = task.solution
    people = [*dm.arguments["people"], "kturner" if task.persona != "kturner" else "mchang"]
    group = dataclasses.replace(dm, arguments={**dm.arguments, "people": people})
    assert not passes(world, task, [*calls, group])


@pytest.mark.parametrize(
    ("template_id", "answer", "expected"),
    [
        ("crm.count-open-cases", "There are {n}.", True),
        ("crm.count-open-cases", "{n} or {n1}", False),
        ("crm.pipeline-amount", "The total is {n}.", True),
        ("crm.pipeline-amount", "{n}, or {n1} with the lost deals", False),
    ],
)
def test_answers_are_read_as_sentences_but_hedges_fail(
    world: World, template_id: str, answer: str, expected: bool
) -> None:
    for seed in range(6):
        task = make_task(template_id, seed)
        value = task.answer or ""
        rival_value = str(int(value) + 1) if value.isdigit() else f"${12_345:,}"
        text = answer.format(n=value, n1=rival_value)
        grade, _ = replay(world, task, task.solution, text)
        assert grade.passed is expected, (seed, text, grade.checks)
