"""Answer priors: a question template's instances spread their expected answers, so no
constant answer, given without a single call, passes many of them."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from officegym.tasks import make_task
from officegym.tasks.priors import spread

# The templates whose data made one answer common (refund $0, one open case, the
# default nightly cap, ...) and now choose instances so the answers spread.
SPREAD = [
    ("booking.cancel-flight", None), ("booking.change-flight", None),
    ("booking.policy-cap", None), ("booking.cheapest-stay", None),
    ("crm.count-open-cases", None), ("slack.count-members", None),
    ("slack.lookup-manager", "easy"), ("sheets.planned-hires", "easy"),
    ("sheets.planned-hires", "medium"), ("sheets.planned-hires", "hard"),
]  # fmt: skip


def test_spread_makes_every_distinct_answer_as_likely() -> None:
    candidates = [("zero", 0)] * 90 + [(f"n{i}", i) for i in range(1, 10)]
    drawn = Counter(
        spread(random.Random(s), candidates, lambda c: c[1], "x")[1] for s in range(3000)
    )
    assert set(drawn) == set(range(10))
    assert max(drawn.values()) / 3000 < 0.13  # each about 1/10, not the 90% of the data


def test_spread_names_what_is_missing() -> None:
    with pytest.raises(LookupError, match="no flights"):
        spread(random.Random(0), [], lambda c: c, "flights")


@pytest.mark.parametrize(("template_id", "level"), SPREAD)
def test_no_constant_answer_passes_more_than_a_tenth(template_id: str, level: str | None) -> None:
    answers = Counter(make_task(template_id, seed, difficulty=level).answer for seed in range(100))
    top, count = answers.most_common(1)[0]
    assert count <= 10, f"{top!r} is the answer of {count} of 100 instances"
