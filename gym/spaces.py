"""Spaces for text environments: free Unicode text and tool calls.

Gymnasium's `spaces.Text` only admits a fixed charset (no JSON punctuation, no
non-ASCII), which rules out tool results and tool calls. `UnicodeText` admits
any string up to a length; `ToolCallSpace` admits a tool call over a fixed set
of tool specs, as JSON text or as a dict, and samples random (mostly wrong)
calls for `check_env` and random agents.
"""

from __future__ import annotations

import json
import string
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from gymnasium.spaces import Space

__all__ = ["SUBMIT", "TextSpace", "ToolCallSpace", "UnicodeText"]

SUBMIT = "submit"
ACTION_KEYS = frozenset({"tool", "arguments"})
_ASCII = [c for c in string.printable if c not in "\t\n\r\x0b\x0c"]
_UNICODE = list("éèüößøåñçÆ—–…“”‘’«»€£¥°±×÷αβγλπΩЖЯ中文日本語한국어🙂🚀✓★")
_CHARSET = np.array(_ASCII * 3 + _UNICODE + ["\n"] * 4)
_WORDS = [
    *("general", "random", "design", "engineering", "sales", "help-it", "announcements"),
    *("hello", "thanks", "eyes", "thumbsup", "tada", "on-vacation", "@jdoe", "@admin"),
    *("Tuesday", "9:30", "Aurora", "standup"),
]


def random_text(rng: np.random.Generator, low: int, high: int) -> str:
    """`low` to `high` random characters: printable ASCII, newlines and some non-ASCII."""
    n = int(rng.integers(low, high + 1))
    return "".join(rng.choice(_CHARSET, size=n)) if n else ""


class TextSpace(Space[str]):
    """A space of strings up to `max_length` characters: samples are JSON-able as they are."""

    def __init__(self, max_length: int, *, seed: int | np.random.Generator | None = None) -> None:
        self.max_length = max_length
        super().__init__(shape=None, dtype=None, seed=seed)

    @property
    def is_np_flattenable(self) -> bool:
        return False

    def contains(self, x: Any) -> bool:
        return isinstance(x, str) and len(x) <= self.max_length

    def _unmasked(self, mask: Any, probability: Any) -> None:
        """Refuse Gymnasium's sampling masks: these spaces have no finite set to mask."""
        if mask is not None or probability is not None:
            raise ValueError(f"{type(self).__name__}.sample takes no mask or probability")

    def to_jsonable(self, sample_n: Sequence[Any]) -> list[Any]:
        return list(sample_n)

    def from_jsonable(self, sample_n: list[Any]) -> list[Any]:
        return list(sample_n)


class UnicodeText(TextSpace):
    """Any Python string of `min_length` to `max_length` characters."""

    def __init__(
        self, max_length: int, *, min_length: int = 0, seed: int | np.random.Generator | None = None
    ) -> None:
        if not 0 <= min_length <= max_length:
            raise ValueError(f"need 0 <= min_length <= max_length, got {min_length}, {max_length}")
        self.min_length = min_length
        super().__init__(max_length, seed=seed)

    def sample(self, mask: Any = None, probability: Any = None) -> str:
        """Random printable text (ASCII incl. JSON punctuation, some non-ASCII), at most
        200 characters beyond `min_length` so samples stay cheap."""
        self._unmasked(mask, probability)
        high = min(self.max_length, self.min_length + 200)
        return random_text(self.np_random, self.min_length, high)

    def contains(self, x: Any) -> bool:
        return isinstance(x, str) and self.min_length <= len(x) <= self.max_length

    def __repr__(self) -> str:
        return f"UnicodeText({self.min_length}, {self.max_length})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, UnicodeText) and (other.min_length, other.max_length) == (
            self.min_length,
            self.max_length,
        )


class ToolCallSpace(TextSpace):
    """Tool calls ``{"tool": name, "arguments": {...}}`` over a fixed set of tool specs.

    `contains` checks the form (a known tool name, an arguments object), not the
    argument values: the environment validates those and answers with an error.
    `sample` returns JSON text: a plausible call, a call with junk arguments, or a
    `submit`.
    """

    def __init__(
        self,
        specs: Sequence[Mapping[str, Any]],
        *,
        max_length: int = 100_000,
        seed: int | np.random.Generator | None = None,
    ) -> None:
        self.specs = tuple(specs)
        self.names = frozenset(s["name"] for s in self.specs) | {SUBMIT}
        super().__init__(max_length, seed=seed)

    def contains(self, x: Any) -> bool:
        if isinstance(x, str):
            if len(x) > self.max_length:
                return False
            try:
                x = json.loads(x)
            except (ValueError, RecursionError):
                return False
        return (
            isinstance(x, Mapping)
            and set(x) <= ACTION_KEYS
            and x.get("tool") in self.names
            and (x.get("arguments") is None or isinstance(x["arguments"], Mapping))
        )

    def sample(self, mask: Any = None, probability: Any = None) -> str:
        """A random call as JSON text: 45% plausible, 40% junk arguments, 15% submit."""
        self._unmasked(mask, probability)
        roll = float(self.np_random.random())
        if roll < 0.15 or not self.specs:
            answer = {"answer": self._text(60)} if roll < 0.1 else {}
            return json.dumps({"tool": SUBMIT, "arguments": answer}, ensure_ascii=False)
        spec = self.specs[int(self.np_random.integers(len(self.specs)))]
        if roll < 0.6:
            args = self._plausible(spec.get("parameters", {}))
        else:
            args = {self._text(12): self._junk(2) for _ in range(self._int(0, 3))}
        return json.dumps({"tool": spec["name"], "arguments": args}, ensure_ascii=False)

    def _text(self, high: int) -> str:
        return random_text(self.np_random, 0, high)

    def _int(self, low: int, high: int) -> int:
        return int(self.np_random.integers(low, high + 1))

    def _plausible(self, schema: Mapping[str, Any]) -> dict[str, Any]:
        """Arguments shaped by the schema: every required one, some optional ones."""
        required = set(schema.get("required", ()))
        props = schema.get("properties", {})
        return {
            k: self._value(p)
            for k, p in props.items()
            if k in required or self.np_random.random() < 0.3
        }

    def _value(self, prop: Mapping[str, Any]) -> Any:
        """A value of the property's type (the first non-null branch of an anyOf)."""
        if "enum" in prop:
            return prop["enum"][self._int(0, len(prop["enum"]) - 1)]
        branches = [b for b in prop.get("anyOf", [prop]) if b.get("type") != "null"] or [prop]
        kind = branches[0].get("type")
        if kind == "integer":
            return self._int(int(prop.get("minimum", 1)), int(prop.get("maximum", 6000)))
        if kind == "boolean":
            return bool(self.np_random.random() < 0.5)
        if kind == "array":
            lo, hi = int(prop.get("minItems", 0)), int(prop.get("maxItems", 3))
            return [self._value(branches[0].get("items", {})) for _ in range(self._int(lo, hi))]
        if self.np_random.random() < 0.7:
            return _WORDS[self._int(0, len(_WORDS) - 1)]
        return self._text(60)

    def _junk(self, depth: int) -> Any:
        """A random JSON value of any type, nested up to `depth`."""
        pick = self._int(0, 6 if depth > 0 else 4)
        if pick == 0:
            return None
        if pick == 1:
            return self._int(-(2**40), 2**40)
        if pick == 2:
            return float(self.np_random.normal() * 1e6)
        if pick == 3:
            return bool(self.np_random.random() < 0.5)
        if pick == 4:
            return self._text(60)
        if pick == 5:
            return [self._junk(depth - 1) for _ in range(self._int(0, 3))]
        return {self._text(8): self._junk(depth - 1) for _ in range(self._int(0, 3))}

    def __repr__(self) -> str:
        return f"ToolCallSpace({len(self.specs)} tools + submit)"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ToolCallSpace) and other.names == self.names
