"""The contract of every task template over 20 seeds (see officegym.tasks.validate):
reference solution 1.0, doing nothing 0, dropping any state-changing call fails,
and seeds give distinct instances."""

from __future__ import annotations

import pytest

from officegym.tasks import TEMPLATES, load_templates, make_task
from officegym.tasks.validate import validate_template

load_templates()
SEEDS = range(20)


@pytest.mark.parametrize(("app", "least"), [("slack", 12), ("crm", 12), ("cross", 6)])
def test_each_app_has_its_templates(app: str, least: int) -> None:
    assert len([t for t in TEMPLATES.values() if t.app == app]) >= least


@pytest.mark.parametrize("template_id", sorted(TEMPLATES))
def test_template_keeps_its_contract(template_id: str) -> None:
    problems = validate_template(template_id, SEEDS)
    assert not problems, "\n".join(f"seed {p.seed}: {p.what}" for p in problems[:10])


@pytest.mark.parametrize("template_id", sorted(TEMPLATES))
def test_instances_differ_across_seeds(template_id: str) -> None:
    instances = {(t.persona, t.goal) for t in (make_task(template_id, s) for s in SEEDS)}
    assert len(instances) >= 15


def test_test_split_seeds_give_other_instances_than_train() -> None:
    from officegym.tasks.splits import SPLITS

    tid = sorted(TEMPLATES)[0]
    train = {make_task(tid, s).goal for s in SPLITS["train"][:20]}
    test = {make_task(tid, s).goal for s in SPLITS["test"][:20]}
    assert test - train
