"""The ranges a written formula reads, moved one step: the `range.shrink` mutants of
`officegym.tasks.mutants` (a range one row or column short at one of its sides)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

__all__ = ["range_mutants"]

_RANGE = re.compile(r"(\$?)([A-Z]{1,3})(\$?)(\d+):(\$?)([A-Z]{1,3})(\$?)(\d+)")
# (kind, side: index into (r1, c1, r2, c2), step). Ranges grown by one are not built yet:
# a lookup table that takes in its header or one column more finds the same (equivalent
# by behaviour), and a criteria range grown into a blank row is caught only when a round
# puts the criterion's own key there.
_SIDES = (("range.shrink", 0, 1), ("range.shrink", 2, -1), ("range.shrink", 1, 1),
          ("range.shrink", 3, -1))  # fmt: skip
_SIDE_NAMES = ("top", "left", "bottom", "right")
_MAX_RANGES = 2  # range mutants for the first ranges of a call's formulas only


def range_mutants(value: list) -> Iterator[tuple[str, str, Any]]:
    """Rows of cells whose formulas read ranges: the `i`th range of every formula moved
    at one side, for the first `_MAX_RANGES` ranges."""
    formulas = [v for row in value if isinstance(row, list) for v in row if _is_formula(v)]
    most = max((len(_RANGE.findall(f)) for f in formulas), default=0)
    for i in range(min(most, _MAX_RANGES)):
        for kind, side, step in _SIDES:
            moved = [
                [_moved(v, i, side, step) if _is_formula(v) else v for v in row]
                if isinstance(row, list)
                else row
                for row in value
            ]
            if moved != value:
                label = f"range {i + 1} {_SIDE_NAMES[side]} {step:+d}"
                yield kind, label, moved


def _is_formula(v: object) -> bool:
    return isinstance(v, str) and v.startswith("=")


def _moved(formula: str, i: int, side: int, step: int) -> str:
    """`formula` with side `side` of its `i`th range moved by `step`; unchanged when it
    has no `i`th range or the range would be empty or leave the sheet."""
    found = list(_RANGE.finditer(formula))
    if i >= len(found):
        return formula
    m = found[i]
    ends = [int(m[4]), _column(m[2]), int(m[8]), _column(m[6])]
    ends[side] += step
    if ends[0] < 1 or ends[1] < 1 or ends[0] > ends[2] or ends[1] > ends[3]:
        return formula
    text = f"{m[1]}{_letters(ends[1])}{m[3]}{ends[0]}:{m[5]}{_letters(ends[3])}{m[7]}{ends[2]}"
    return formula[: m.start()] + text + formula[m.end() :]


def _column(letters: str) -> int:
    n = 0
    for ch in letters:
        n = n * 26 + ord(ch) - 64
    return n


def _letters(n: int) -> str:
    out = ""
    while n:
        n, r = divmod(n - 1, 26)
        out = chr(65 + r) + out
    return out
