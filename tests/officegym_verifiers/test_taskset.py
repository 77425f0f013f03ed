"""officegym as a verifiers 0.4 taskset: loaded by id through its package's `__all__`,
instances of one split in a fixed order, and verifiers' own `vf-eval` playing reference
replies from the tests' OpenAI-compatible server to the officegym reward 1.0."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from officegym.tasks import make_task
from officegym.tasks.splits import split_of, split_seeds
from tests.gym.openai_stub import ScriptedModel
from tests.officegym_verifiers.vf import TEMPLATES, rewards, train_instances, vf_eval


def test_verifiers_loads_the_taskset_and_its_env_by_id() -> None:
    from verifiers.v1.utils.loaders import environment_class, taskset_class

    import officegym_verifiers

    assert taskset_class("officegym-verifiers") is officegym_verifiers.OfficeTaskset
    assert environment_class("officegym-verifiers") is officegym_verifiers.OfficeEnv


def test_the_taskset_yields_instances_of_its_split_in_order() -> None:
    from officegym_verifiers import OfficeTaskset, OfficeTasksetConfig

    config = OfficeTasksetConfig(id="officegym-verifiers", templates=TEMPLATES, per_template=3,
                                 split="test")  # fmt: skip
    tasks = list(OfficeTaskset(config))
    assert [(t.data.template, t.data.idx) for t in tasks] == [
        (tid, i) for i, tid in enumerate(t for t in TEMPLATES for _ in range(3))
    ]
    for tid in TEMPLATES:
        seeds = [t.data.task_seed for t in tasks if t.data.template == tid]
        assert seeds == list(itertools.islice(split_seeds(tid, "test"), 3))
        assert all(split_of(make_task(tid, s)) == "test" for s in seeds)
    with pytest.raises(ValueError, match="unknown officegym template"):
        list(OfficeTaskset(OfficeTasksetConfig(id="x", templates=["slack.nope"])))


def test_vf_eval_plays_reference_replies_to_reward_one(
    scripted_model: ScriptedModel, tmp_path: Path
) -> None:
    instances = train_instances()
    for tid, seed in instances:
        scripted_model.learn(make_task(tid, seed))
    episodes = vf_eval(scripted_model, "reference-text", tmp_path, TEMPLATES, 2, actions="text")
    assert sorted(e["task"]["data"]["name"] for e in episodes) == sorted(
        f"{tid}#{s}" for tid, s in instances
    )
    for episode in episodes:
        assert episode["ok"] and not episode.get("errors")
        (trace,) = episode["traces"]
        assert rewards(trace) == (1.0, 1.0)
