"""The contract of every task template over 20 seeds (3 for long-horizon ones; see
officegym.tasks.validate): reference solution 1.0, doing nothing 0, dropping any
state-changing call fails, and seeds give distinct instances."""

from __future__ import annotations

import itertools
import json

import pytest

from officegym.tasks import TEMPLATES, Task, load_templates, make_task
from officegym.tasks.splits import split_of, split_seeds
from officegym.tasks.validate import instance_problem, validate_template

load_templates()
SEEDS = range(20)
LONG = 15  # reference calls from which a template is long-horizon


def contract_seeds(template_id: str) -> range:
    """20 seeds; 3 for a long-horizon template, whose every mutant replays 20-50 calls
    (`officegym validate <id> --seeds 20` is the thorough run)."""
    return range(3) if len(make_task(template_id, 0).solution) >= LONG else SEEDS


@pytest.mark.parametrize(
    ("app", "least"),
    [("slack", 12), ("crm", 12), ("cross", 11), ("booking", 15), ("sheets", 15)],
)
def test_each_app_has_its_templates(app: str, least: int) -> None:
    assert len([t for t in TEMPLATES.values() if t.app == app]) >= least


@pytest.mark.parametrize("template_id", sorted(TEMPLATES))
def test_template_keeps_its_contract(template_id: str) -> None:
    problems = validate_template(template_id, contract_seeds(template_id))
    assert not problems, "\n".join(f"seed {p.seed}: {p.what}" for p in problems[:10])


@pytest.mark.parametrize("template_id", sorted(TEMPLATES))
def test_instances_differ_across_seeds(template_id: str) -> None:
    """validate's rule (15 distinct of 20), judged by validate's own function."""
    tasks = [make_task(template_id, s) for s in SEEDS]
    assert instance_problem(template_id, tasks, None) is None


@pytest.mark.parametrize("template_id", sorted(TEMPLATES))
def test_every_template_has_test_instances_and_none_in_both_splits(template_id: str) -> None:
    test_seeds = list(itertools.islice(split_seeds(template_id, "test"), 5))
    train_seeds = list(itertools.islice(split_seeds(template_id, "train"), 20))
    test = {instance(make_task(template_id, s)) for s in test_seeds}
    train = {instance(make_task(template_id, s)) for s in train_seeds}
    assert len(test_seeds) == 5 and test and train
    assert not test & train


def instance(task: Task) -> str:
    """What the agent is given and what it must produce."""
    work = [(c.name, c.arguments) for c in task.solution]
    return json.dumps([task.goal, work, task.answer], sort_keys=True, default=str)


def test_a_split_is_a_property_of_the_instance_not_of_the_seed_or_persona() -> None:
    """The same question about the same channel, asked by anyone, has one answer: one
    split."""
    by_goal: dict[str, set[str]] = {}
    for seed in range(300):
        task = make_task("slack.count-members", seed)
        by_goal.setdefault(task.goal, set()).add(split_of(task))
    assert all(len(splits) == 1 for splits in by_goal.values())
    assert {next(iter(s)) for s in by_goal.values()} == {"train", "test"}


def test_split_seeds_with_a_count_ends_after_that_many() -> None:
    """``list(split_seeds(id, split, 3))`` returns; without a count it goes on (islice)."""
    first = list(split_seeds("slack.invite-team", "test", 3))
    assert first == list(itertools.islice(split_seeds("slack.invite-team", "test"), 3))
    assert len(first) == 3 and list(split_seeds("slack.invite-team", "test", 0)) == []
    with pytest.raises(ValueError, match="count"):
        list(split_seeds("slack.invite-team", "test", -1))
