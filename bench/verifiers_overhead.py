"""What verifiers adds to a step: one tool call through `vf-eval`'s native tool calling
(`officegym_verifiers`) against a direct ``env.step`` of the same call, in one run, for
both native forms side by side.

    python bench/verifiers_overhead.py [--reads 40] [--steps 300] [--text]

- direct: ``env.step`` on ``gymnasium.make("officegym/slack.pin-message-v0")`` of a read
  call (``slack_list_channels``), median of `--steps` (before and after the episodes);
- each verifiers form: verifiers' own ``run_eval`` (what ``vf-eval`` runs) on one
  instance, its model a scripted OpenAI-compatible server on 127.0.0.1 that makes the
  read call `--reads` times, then the reference calls and ``submit`` (the episode must
  reach 1.0). The server notes when each request arrives: between two reads lies exactly
  one step through verifiers, so the median gap is the step, with start-up left out.
  Less the upstream model call as the interception waited on it in the same steps (the
  scripted model's own answer time through the openai client is printed for reference),
  what remains over the direct step is verifiers' (and the form's). The forms:
  ``tools`` (the default: in-process steps through verifiers' tool gate, one shared
  tool listing per eval) and ``mcp`` (a tool server per rollout, with the rollout state's
  pull and push per call). Start-up is the time from ``run_eval`` (verifiers already
  imported) to the model's first request: the eval's shared tool listing (``tools``) or
  the rollout's tool server (``mcp``), then the harness's process.
- where a step's time goes, per form (medians over the read steps, timed by wrapping
  verifiers' own interception handlers): the model request as the interception serves it
  (of which the upstream model call, and the tool gate's request hooks: verifiers' copies
  and hashes of the conversation around officegym's ``step_call``, the env step), the
  harness's ``POST /tool``, the state channel, and the rest outside the interception (the
  harness process: the reply's stream, its tool call, the next request);
- CPU per step over the read steps: of the eval's process (verifiers, the env, the
  scripted model's thread) and of the processes it started (the harness, tool servers),
  from /proc, since load from other jobs stretches wall time but hardly CPU time;
- ``--text``: the same for the JSON-in-text form, where each step relaunches the harness.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import itertools
import os
import statistics
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import officegym  # noqa: F401  (registers the environments)

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from timing import chat_ms, env_step_ms

from tests.gym.openai_stub import ScriptedModel


class TimedModel(ScriptedModel):
    """The scripted model, noting when each chat-completions request arrives, and at the
    requests `cpu_marks` names, the CPU seconds used so far by this process and by each
    process it started (the harness, tool servers), which load on the machine does not
    inflate as it does wall time."""

    def __init__(self) -> None:
        super().__init__()
        self.arrivals: list[float] = []
        self.cpu_marks: tuple[int, ...] = ()
        self.cpu: dict[int, tuple[float, dict[int, float]]] = {}

    def reply(self, body: dict) -> tuple[int, dict]:
        self.arrivals.append(time.perf_counter())
        if len(self.arrivals) - 1 in self.cpu_marks:
            self.cpu[len(self.arrivals) - 1] = (time.process_time(), descendants_cpu())
        return super().reply(body)


def descendants_cpu() -> dict[int, float]:
    """CPU seconds (user + system) of every live process below this one, by pid (Linux)."""
    tick = os.sysconf("SC_CLK_TCK")
    parents: dict[int, int] = {}
    used: dict[int, float] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        pid = int(stat.parent.name)
        parents[pid] = int(fields[1])
        used[pid] = (int(fields[11]) + int(fields[12])) / tick
    mine, found = {os.getpid()}, True
    while found:
        found = False
        for pid, parent in parents.items():
            if parent in mine and pid not in mine:
                mine.add(pid)
                found = True
    return {pid: used[pid] for pid in mine - {os.getpid()}}


TEMPLATE = "slack.pin-message"
READ = ("slack_list_channels", {"member_only": True})
SPANS = {  # what is timed: (module, class, method) -> span name
    ("verifiers.v1.interception.server", "InterceptionServer", "handle_request"): "request",
    ("verifiers.v1.clients.eval", "EvalClient", "get_response"): "upstream",
    ("verifiers.v1.clients.eval", "EvalClient", "relay"): "upstream",
    ("verifiers.v1.session", "RolloutSession", "gate_tool_calls"): "gate hooks",
    ("officegym_verifiers.gated", "OfficeGatedTask", "step_call"): "step hook",
    ("verifiers.v1.interception.server", "InterceptionServer", "handle_tool"): "POST /tool",
    ("verifiers.v1.interception.server", "InterceptionServer", "handle_state_get"): "state",
    ("verifiers.v1.interception.server", "InterceptionServer", "handle_state_put"): "state",
}


@contextlib.contextmanager
def timed_spans() -> Iterator[list[tuple[str, float, float]]]:
    """Record (span, start, end) of each call of the `SPANS` methods while open."""
    import importlib

    spans: list[tuple[str, float, float]] = []
    saved = []
    for (module, cls_name, method), name in SPANS.items():
        cls = getattr(importlib.import_module(module), cls_name)
        original = getattr(cls, method)

        @functools.wraps(original)
        async def timed(*args, _original=original, _name=name, **kwargs):  # type: ignore[no-untyped-def]
            start = time.perf_counter()
            try:
                return await _original(*args, **kwargs)
            finally:
                spans.append((_name, start, time.perf_counter()))

        saved.append((cls, method, original))
        setattr(cls, method, timed)
    try:
        yield spans
    finally:
        for cls, method, original in saved:
            setattr(cls, method, original)


def direct_ms(steps: int) -> float:
    """Median ms of a direct env.step of the read call."""
    action = {"tool": READ[0], "arguments": READ[1]}
    return env_step_ms(f"officegym/{TEMPLATE}-v0", action, steps)


def step_ms(model: TimedModel, reads: int, actions: str, out: Path) -> dict[str, float]:
    """One verifiers run_eval episode whose script starts with `reads` read calls (it must
    reach 1.0): the median ms between two read steps (``step``), the seconds to the first
    model request (``startup``) and in all (``wall``), and the median ms per step of each
    timed span (``outside``: the step less the interception's handlers)."""
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
    model.cpu.clear()
    model.cpu_marks = (1, reads)
    with timed_spans() as spans:
        start = time.perf_counter()
        episodes = asyncio.run(run_eval(config))
        elapsed = time.perf_counter() - start
    scores = [t.rewards["officegym"].score for e in episodes for t in e.traces]
    assert scores == [1.0], scores
    marks = model.arrivals[1 : reads + 1]
    result = {
        "step": 1000 * statistics.median(b - a for a, b in itertools.pairwise(marks)),
        "startup": model.arrivals[0] - start,
        "wall": elapsed,
    }
    windows = list(itertools.pairwise(marks))
    for name in dict.fromkeys(SPANS.values()):
        per_step = [sum(e - s for n, s, e in spans if n == name and a <= s < b) for a, b in windows]
        result[name] = 1000 * statistics.median(per_step)
    handlers = [
        sum(e - s for n, s, e in spans if n in ("request", "POST /tool", "state") and a <= s < b)
        for a, b in windows
    ]
    (eval_a, kids_a), (eval_b, kids_b) = model.cpu[1], model.cpu[reads]
    result["cpu eval"] = 1000 * (eval_b - eval_a) / (reads - 1)
    result["cpu others"] = (
        1000 * sum(t - kids_a.get(pid, 0.0) for pid, t in kids_b.items()) / (reads - 1)
    )
    result["outside"] = statistics.median(
        1000 * (b - a) - 1000 * h for (a, b), h in zip(windows, handlers, strict=True)
    )
    return result


def model_ms(model: ScriptedModel) -> float:
    """The scripted model's own answer time through the openai client (ms per call)."""
    return chat_ms(model.base_url, "reference", next(iter(model.tasks)))


def report(label: str, run: dict[str, float], direct: float, reads: int) -> None:
    """Print one form's step, its overhead over the direct step, start-up and breakdown."""
    step, over = run["step"], run["step"] - run["upstream"]
    print(
        f"{label}: {step:.1f} ms per step (median of {reads - 1}); less the upstream model "
        f"call {over:.1f} ms, +{over - direct:.1f} ms over direct ({over / direct:.0f}x); "
        f"first model request after {run['startup']:.1f} s, episode {run['wall']:.1f} s"
    )
    parts = ", ".join(
        f"{k} {run[k]:.1f}"
        for k in (
            "request",
            "upstream",
            "gate hooks",
            "step hook",
            "POST /tool",
            "state",
            "outside",
        )
    )
    print(f"    per step, ms: {parts}")
    print(
        f"    CPU per step, ms: the eval's process {run['cpu eval']:.1f} (verifiers, the env "
        f"and the scripted model), its child processes {run['cpu others']:.1f} (the harness, "
        "tool servers)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--reads", type=int, default=40)
    parser.add_argument("--text", action="store_true", help="also the JSON-in-text form")
    parser.add_argument("--out", default="/tmp/officegym-bench-vf-overhead")
    args = parser.parse_args()
    # Imported before any timing, so neither form's start-up carries verifiers' import.
    from verifiers.v1.cli.eval.runner import run_eval  # noqa: F401

    import officegym_verifiers  # noqa: F401

    model = TimedModel()
    out = Path(args.out)
    try:
        direct = direct_ms(args.steps)
        gated = step_ms(model, args.reads, "tools", out)
        served = step_ms(model, args.reads, "mcp", out)
        answer = model_ms(model)
        text = step_ms(model, args.reads, "text", out) if args.text else None
        direct = min(direct, direct_ms(args.steps))
    finally:
        model.close()
    print(f"direct env.step (median of {args.steps}, before and after): {direct:.2f} ms")
    print(f"scripted model's own answer through the openai client: {answer:.2f} ms")
    report("in process, through the tool gate (actions=tools)", gated, direct, args.reads)
    report("tool server per rollout (actions=mcp)", served, direct, args.reads)
    if text is not None:
        report("JSON in text, a harness launch per step (actions=text)", text, direct, args.reads)


if __name__ == "__main__":
    main()
