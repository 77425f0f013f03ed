"""A small phrase grammar for seeded texts: a template's `{slot}`s are filled from the
rules (a list of alternative templates, expanded in turn, or a fixed string), by the
generator's own seeded random stream, so the same world always says the same things.
Slots the rules do not name are left as they are, for the caller's `str.format`."""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence

SLOT = re.compile(r"\{(\w+)\}")
Rules = Mapping[str, str | Sequence[str]]


def expand(template: str, rng: random.Random, rules: Rules, depth: int = 0) -> str:
    """`template` with every slot the rules name filled (alternatives chosen by `rng`)."""
    if depth > 8:
        raise ValueError(f"phrase rules nest too deep at {template!r}")

    def fill(m: re.Match[str]) -> str:
        value = rules.get(m.group(1))
        if value is None:
            return m.group(0)
        if isinstance(value, str):
            return value
        return expand(rng.choice(value), rng, rules, depth + 1)

    return SLOT.sub(fill, template)


def capital(text: str) -> str:
    """`text` with its first letter upper-cased (the rest left as written)."""
    return text[:1].upper() + text[1:]
