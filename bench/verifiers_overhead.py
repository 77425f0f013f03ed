"""What verifiers adds to a step: one tool call through `vf-eval`'s native tool calling
(`officegym_verifiers`) against a direct ``env.step`` of the same call, in one run.

    python bench/verifiers_overhead.py [--reads 40] [--steps 300] [--text]

- direct: ``env.step`` on ``gymnasium.make("officegym/slack.pin-message-v0")`` of a read
  call (``slack_list_channels``), median of `--steps` (before and after the episodes);
- verifiers: verifiers' own ``run_eval`` (what ``vf-eval`` runs) on one instance, its
  model a scripted OpenAI-compatible server on 127.0.0.1 that makes the read call
  `--reads` times, then the reference calls and ``submit`` (the episode must reach 1.0).
  The server notes when each request arrives: between two reads lies exactly one step
  through verifiers (the model's answer through verifiers' interception, the harness's
  MCP call, the rollout state's pull and push, the env step, the next request), so the
  median gap is the step, with the episode's start-up (tool server, harness) left out.
  Less the scripted model's own answer time (measured with the openai client), what
  remains over the direct step is verifiers';
- ``--text``: the same for the JSON-in-text form (``actions = "text"``), where each step
  relaunches the harness.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import statistics
import sys
import time
from pathlib import Path

import officegym  # noqa: F401  (registers the environments)

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from timing import chat_ms, env_step_ms

from tests.gym.openai_stub import ScriptedModel


class TimedModel(ScriptedModel):
    """The scripted model, noting when each chat-completions request arrives."""

    def __init__(self) -> None:
        super().__init__()
        self.arrivals: list[float] = []

    def reply(self, body: dict) -> tuple[int, dict]:
        self.arrivals.append(time.perf_counter())
        return super().reply(body)


TEMPLATE = "slack.pin-message"
READ = ("slack_list_channels", {"member_only": True})


def direct_ms(steps: int) -> float:
    """Median ms of a direct env.step of the read call."""
    action = {"tool": READ[0], "arguments": READ[1]}
    return env_step_ms(f"officegym/{TEMPLATE}-v0", action, steps)


def step_ms(model: TimedModel, reads: int, actions: str, out: Path) -> tuple[float, float]:
    """(median ms between two read steps, the episode's wall seconds) of one verifiers
    run_eval episode whose script starts with `reads` read calls; it must reach 1.0."""
    from verifiers.v1.cli.eval.runner import run_eval
    from verifiers.v1.configs.cli.eval import EvalConfig

    from officegym.tasks import make_task
    from officegym.tasks.splits import split_seeds

    task = make_task(TEMPLATE, next(split_seeds(TEMPLATE, "train")))
    reference = [(c.name, dict(c.arguments)) for c in task.solution]
    model.tasks[task.goal] = ([READ] * reads + reference, task.answer)
    name = "reference-text" if actions == "text" else "reference"
    config = EvalConfig.model_validate({
        "model": name, "push": False, "rich": None, "output_dir": str(out / actions),
        "env": {"taskset": {"id": "officegym-verifiers", "templates": [TEMPLATE],
                            "per_template": 1, "actions": actions, "max_steps": reads + 30}},
        "client": {"base_url": model.base_url},
    })  # fmt: skip
    model.arrivals.clear()
    start = time.perf_counter()
    episodes = asyncio.run(run_eval(config))
    elapsed = time.perf_counter() - start
    scores = [t.rewards["officegym"].score for e in episodes for t in e.traces]
    assert scores == [1.0], scores
    gaps = [b - a for a, b in itertools.pairwise(model.arrivals[1 : reads + 1])]
    return 1000 * statistics.median(gaps), elapsed


def model_ms(model: ScriptedModel) -> float:
    """The scripted model's own answer time through the openai client (ms per call)."""
    return chat_ms(model.base_url, "reference", next(iter(model.tasks)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--reads", type=int, default=40)
    parser.add_argument("--text", action="store_true", help="also the JSON-in-text form")
    parser.add_argument("--out", default="/tmp/officegym-bench-vf-overhead")
    args = parser.parse_args()
    model = TimedModel()
    out = Path(args.out)
    try:
        direct = direct_ms(args.steps)
        native, native_s = step_ms(model, args.reads, "tools", out)
        answer = model_ms(model)
        text = step_ms(model, args.reads, "text", out) if args.text else None
        direct = min(direct, direct_ms(args.steps))
    finally:
        model.close()
    print(f"direct env.step (median of {args.steps}, before and after): {direct:.2f} ms")
    print(f"scripted model's own answer through the openai client: {answer:.2f} ms")
    over = native - answer - direct
    print(
        f"verifiers native tool step (median of {args.reads - 1} gaps; episode {native_s:.1f} s "
        f"wall): {native:.1f} ms = {native / direct:.1f}x the direct step; less the model's "
        f"answer {native - answer:.1f} ms, +{over:.1f} ms over direct "
        f"({(native - answer) / direct:.1f}x)"
    )
    if text is not None:
        print(
            f"verifiers JSON-in-text step (a harness launch each; episode {text[1]:.1f} s): "
            f"{text[0]:.1f} ms (+{text[0] - answer - direct:.1f} ms over direct)"
        )


if __name__ == "__main__":
    main()
