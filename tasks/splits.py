"""Train and test splits, by task seed range.

Every template yields one instance per seed. Seeds 0-999,999 are the training
split, 1,000,000-1,009,999 the held-out test split: the same template never
gives the same instance in both, and a seed means the same instance on every
machine.
"""

from __future__ import annotations

from typing import Literal

Split = Literal["train", "test"]

SPLITS: dict[str, range] = {
    "train": range(0, 1_000_000),
    "test": range(1_000_000, 1_010_000),
}


def split_of(seed: int) -> str | None:
    return next((name for name, r in SPLITS.items() if seed in r), None)
