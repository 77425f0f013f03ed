"""What the tests that run verifiers' own ``vf-eval`` share: their templates, the
instances a scripted model learns (the last one left idle), one run of ``vf-eval`` and
the rewards an episode's trace records."""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from officegym.gym.tools_env import tool_specs
from officegym.tasks import make_task
from officegym.tasks.splits import split_seeds
from tests.gym.openai_stub import ScriptedModel

TEMPLATES = ["slack.pin-message", "crm.pipeline-amount"]
VF_EVAL = Path(sys.executable).with_name("vf-eval")


def train_instances(per_template: int = 2) -> list[tuple[str, int]]:
    """The first `per_template` train instances of each of `TEMPLATES`, in the order
    ``vf-eval`` plays them."""
    return [
        (t, s) for t in TEMPLATES for s in itertools.islice(split_seeds(t, "train"), per_template)
    ]


def learn_with_idle_last(model: ScriptedModel) -> list[tuple[str, int]]:
    """Teach `model` the reference of every train instance, except the last one, which it
    submits at once, having done nothing; the instances."""
    instances = train_instances()
    for tid, seed in instances:
        model.learn(make_task(tid, seed))
    idle = make_task(*instances[-1])
    model.tasks[idle.goal] = ([], None)
    return instances


def vf_eval(
    model: ScriptedModel,
    name: str,
    tmp: Path,
    templates: list[str],
    per_template: int,
    actions: str = "tools",
) -> list[dict[str, Any]]:
    """Run ``vf-eval`` with `model` (its `name` picks the script) on `per_template`
    instances of each of `templates` played with `actions`; its episodes, once it
    exited 0."""
    config = tmp / f"{name}.toml"
    config.write_text(
        f'model = "{name}"\npush = false\noutput_dir = "{tmp / name}"\n'
        f'[env.taskset]\nid = "officegym-verifiers"\ntemplates = {json.dumps(templates)}\n'
        f'per_template = {per_template}\nactions = "{actions}"\n'
        f'[client]\nbase_url = "{model.base_url}"\n'
    )
    env = {**os.environ, "OPENAI_API_KEY": "not-needed"}
    run = subprocess.run([str(VF_EVAL), "@", str(config), "--no-rich"], capture_output=True,
                         text=True, timeout=600, env=env, cwd=tmp)  # fmt: skip
    assert run.returncode == 0, run.stderr[-3000:]
    (traces,) = (tmp / name).glob("*/traces.jsonl")
    return [json.loads(line) for line in traces.read_text().splitlines()]


def played_to_the_end(episodes: list[dict[str, Any]]) -> dict[str, tuple[float, float]]:
    """The rewards by instance name of `episodes`, each of which ran without error to the
    episode's end, the task's own tools listed to the model."""
    scores = {}
    for episode in episodes:
        assert episode["ok"] and not episode.get("errors"), episode.get("errors") or episode
        (trace,) = episode["traces"]
        assert trace["stop_condition"] == "episode_over"
        data = episode["task"]["data"]
        apps = make_task(data["template"], data["task_seed"]).apps
        assert [t["name"] for t in trace["tools"]] == [s["name"] for s in tool_specs(apps)]
        scores[data["name"]] = rewards(trace)
    return scores


def rewards(trace: dict[str, Any]) -> tuple[float, float]:
    """The officegym reward and pass (1.0 or 0.0) a trace records."""
    scores = trace["rewards"]
    return scores["officegym"]["score"], scores["officegym_passed"]["score"]


def idle_last_rewards(instances: list[tuple[str, int]]) -> dict[str, tuple[float, float]]:
    """What `learn_with_idle_last`'s instances must score by name: the reference 1.0 and
    a pass, the idle last one 0."""
    return {f"{t}#{s}": (0.0, 0.0) if (t, s) == instances[-1] else (1.0, 1.0) for t, s in instances}
