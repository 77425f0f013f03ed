"""How often one constant answer would pass a question template: its answer prior.

For every template whose tasks expect a typed answer (`Spec.answer`), build its
instances over `--seeds` seeds (default 50) at each of its levels on one world and count
the expected answers: the share of instances whose expected answer is the most common
one is what a policy that answers that constant, without a single call, scores. A
template passes at most 10% (`--limit`); a choice with two options (yes/no) at most 55%.
Seeds where the world lacks what the template needs (`LookupError`) are left out.

    python bench/answer_priors.py [--seeds 50] [--limit 0.10] [template ids ...]
"""

from __future__ import annotations

import argparse
from collections import Counter
from dataclasses import dataclass

from officegym.tasks import load_templates, make_task
from officegym.tasks.base import get_template
from officegym.tasks.facts import Fact

BINARY_LIMIT = 0.55


@dataclass(frozen=True)
class Prior:
    """One template's answer prior over the seeds it built on."""

    template: str
    built: int
    top: str
    share: float
    limit: float


def expected(fact: Fact) -> str:
    """The expected answer as one comparable text (its values, in order)."""
    return fact.text()


def prior(template_id: str, seeds: int, limit: float, level: str | None = None) -> Prior | None:
    """The answer prior of `template_id` at `level` (None: its default level; None when
    its tasks expect no answer)."""
    answers: Counter[str] = Counter()
    two_way = False
    for seed in range(seeds):
        try:
            task = make_task(template_id, seed, difficulty=level)
        except LookupError:
            continue
        if task.expects is None:
            return None
        answers[expected(task.expects)] += 1
        two_way = task.expects.kind == "choice" and len(task.expects.options) == 2
    if not answers:
        return None
    top, count = answers.most_common(1)[0]
    built = sum(answers.values())
    name = f"{template_id}@{level}" if level else template_id
    return Prior(name, built, top, count / built, BINARY_LIMIT if two_way else limit)


def levels(template_id: str) -> tuple[str | None, ...]:
    """The levels a template is built at: each knob level, or just its own."""
    tpl = get_template(template_id)
    return tuple(tpl.levels) if tpl.knobs else (None,)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("templates", nargs="*", help="template ids (default: every one)")
    parser.add_argument("--seeds", type=int, default=50)
    parser.add_argument("--limit", type=float, default=0.10)
    args = parser.parse_args()
    ids = args.templates or sorted(load_templates())
    rows = [
        p
        for t in ids
        for level in levels(t)
        if (p := prior(t, args.seeds, args.limit, level)) is not None
    ]
    print(f"{'template':40} {'built':>5} {'share':>6}  most common answer")
    for p in sorted(rows, key=lambda r: -r.share):
        flag = "  OVER" if p.share > p.limit else ""
        print(f"{p.template:40} {p.built:5d} {p.share:6.0%}  {p.top[:40]}{flag}")
    over = [p for p in rows if p.share > p.limit]
    print(f"{len(rows)} templates with an answer, {len(over)} over their limit")


if __name__ == "__main__":
    main()
