"""Choosing a question's instance so that no constant answer passes many of them.

A question template whose data make one answer common (most flights refund $0, most
accounts have one open case) teaches a policy to answer that constant without looking.
`spread` picks among candidate instances by their expected answer first: every distinct
answer is as likely as any other, then one instance with it. The most common answer then
comes up in about one instance in as many as there are distinct answers, which
`bench/answer_priors.py` measures over 50 seeds (the bar: at most 10%).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Iterable
from typing import TypeVar

__all__ = ["spread"]

T = TypeVar("T")


def spread(
    rng: random.Random, candidates: Iterable[T], answer: Callable[[T], Hashable], what: str
) -> T:
    """One of `candidates`: first one of their distinct `answer`s, uniformly, then one
    candidate with that answer. Raises `LookupError` naming `what` when there is none."""
    groups: dict[Hashable, list[T]] = {}
    for c in candidates:
        groups.setdefault(answer(c), []).append(c)
    if not groups:
        raise LookupError(f"the world has no {what} for this template")
    chosen = groups[rng.choice(list(groups))]
    return rng.choice(chosen)
