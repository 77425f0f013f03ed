"""What the training-stack adapters add to a step: OpenEnv over its WebSocket session and
verifiers' episode loop, against a direct Gymnasium step.

    python bench/adapter_overhead.py [--steps 300] [--episodes 6]

- direct: ``env.step`` on ``gymnasium.make("officegym/slack-v0")`` (a read tool call);
- OpenEnv: the same call through openenv-core's server (`create_openenv_app`, uvicorn on
  127.0.0.1) and OpenEnv's own sync client; the overhead is the difference per step;
- verifiers: `OfficeEnv.run` inside verifiers' own `run_eval` against a scripted
  OpenAI-compatible server on 127.0.0.1 answering with reference calls; the cost per
  step is the marginal time of more episodes (two runs, different sizes, so start-up
  cancels out), less the direct step and the scripted model's own answer time.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import sys
import time
from pathlib import Path

import officegym  # noqa: F401  (registers the environments)

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from timing import chat_ms, env_step_ms, median_ms

from tests.gym.openai_stub import ScriptedModel
from tests.servers import served

CALL = {"tool": "slack_list_channels", "arguments": {"member_only": True}}
TEMPLATES = ["slack.pin-message", "slack.set-status"]


def direct_ms(steps: int) -> float:
    return env_step_ms("officegym/slack-v0", CALL, steps)


def openenv_ms(steps: int) -> float:
    from openenv import GenericEnvClient

    from officegym.gym.openenv_server import create_openenv_app

    app = create_openenv_app("officegym/slack-v0", max_steps=10**6)
    with served(app) as url, GenericEnvClient(base_url=url).sync() as client:
        client.reset(seed=0)
        client.step(CALL)
        return median_ms(lambda: client.step(CALL), steps)


def verifiers_seconds(model: ScriptedModel, per_template: int, out: Path) -> tuple[float, int]:
    """Wall time of verifiers' run_eval over `per_template` seeds per template, and steps."""
    from verifiers.v1.cli.eval.runner import run_eval
    from verifiers.v1.configs.cli.eval import EvalConfig

    from officegym.tasks import make_task
    from officegym.tasks.splits import split_seeds

    steps = 0
    for tid in TEMPLATES:
        for seed in itertools.islice(split_seeds(tid, "train"), per_template):
            task = make_task(tid, seed)
            model.learn(task)
            steps += len(task.solution) + 1
    config = EvalConfig.model_validate({
        "model": "reference-text", "push": False, "rich": None, "output_dir": str(out),
        "env": {"taskset": {"id": "officegym-verifiers", "templates": TEMPLATES,
                            "per_template": per_template}},
        "client": {"base_url": model.base_url},
    })  # fmt: skip
    start = time.perf_counter()
    episodes = asyncio.run(run_eval(config))
    elapsed = time.perf_counter() - start
    assert all(t.rewards["officegym"].score == 1.0 for e in episodes for t in e.traces)
    return elapsed, steps


def model_ms(model: ScriptedModel) -> float:
    """The scripted model's own answer time, through the openai client."""
    from officegym.tasks import make_task

    task = make_task(TEMPLATES[0], 0)
    model.learn(task)
    return chat_ms(model.base_url, "reference-text", task.goal)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--episodes", type=int, default=6, help="per template, larger run")
    parser.add_argument("--out", default="/tmp/officegym-bench-vf")
    args = parser.parse_args()
    direct = direct_ms(args.steps)
    print(f"direct env step (median of {args.steps}): {direct:.2f} ms")
    over = openenv_ms(args.steps)
    print(f"OpenEnv WebSocket step: {over:.2f} ms (+{over - direct:.2f} ms over direct)")
    model = ScriptedModel()
    answer = model_ms(model)
    small, small_steps = verifiers_seconds(model, 1, Path(args.out) / "small")
    large, large_steps = verifiers_seconds(model, args.episodes, Path(args.out) / "large")
    per_step = 1000 * (large - small) / (large_steps - small_steps)
    per_episode = (large - small) / ((args.episodes - 1) * len(TEMPLATES))
    print(f"verifiers episode (marginal): {per_episode:.2f} s (a harness process each)")
    print(
        f"verifiers step (marginal, {large_steps - small_steps} steps): {per_step:.1f} ms, "
        f"of which the scripted model answers in {answer:.1f} ms and the env in {direct:.2f} ms "
        f"(+{per_step - answer - direct:.1f} ms verifiers' harness and interception)"
    )
    model.close()


if __name__ == "__main__":
    main()
