"""The browser env's action space: action strings of the BrowserGym-style language.

`contains` admits any string up to the length limit (the env parses it and
answers a malformed one with an error observation); `sample` writes random calls
of the language (plausible element ids of the clones, random text, now and then
a malformed one) for `check_env`, random agents and fuzzing.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from officegym.gym.browser.actions import MAX_ACTION_CHARS, SIGNATURES, format_action
from officegym.gym.spaces import TextSpace, random_text

__all__ = ["BrowserActionSpace"]

SAMPLE_IDS = (
    "composer-text",
    "composer-send",
    "sidebar-people",
    "sidebar-browse",
    "sidebar-search-query",
    "sidebar-channel-general",
    "nav-slack",
    "nav-home",
    "people-query",
    "status-emoji",
    "msg-1",
    "no-such-element",
)
SAMPLE_PATHS = ("/", "/slack/", "/slack/people", "/slack/browse", "/slack/status", "/nowhere")
SAMPLE_KEYS = ("Enter", "Tab", "Escape", "ArrowDown", "Control+a", "a")
# Never sampled: they end the episode, and check_env wants to step on.
ENDING = ("send_msg_to_user", "report_infeasible")
SAMPLED_NAMES = tuple(sorted(n for n in SIGNATURES if n not in ENDING))


class BrowserActionSpace(TextSpace):
    """Action strings such as ``click('composer-send')``, up to `max_length` characters."""

    def __init__(
        self, max_length: int = MAX_ACTION_CHARS, *, seed: int | np.random.Generator | None = None
    ) -> None:
        super().__init__(max_length, seed=seed)

    def sample(self, mask: Any = None, probability: Any = None) -> str:
        """A random action: 90% a well-formed call (which may still fail), 10% junk text."""
        self._unmasked(mask, probability)
        if self.np_random.random() < 0.1:
            return random_text(self.np_random, 0, 40)
        name = SAMPLED_NAMES[int(self.np_random.integers(len(SAMPLED_NAMES)))]
        return format_action(name, *(self._value(p.kind) for p in SIGNATURES[name]))

    def _pick(self, items: Sequence[str]) -> str:
        return items[int(self.np_random.integers(len(items)))]

    def _value(self, kind: str) -> Any:
        """A random value for a parameter of this kind."""
        if kind == "bid":
            return self._pick(SAMPLE_IDS)
        if kind == "url":
            return self._pick(SAMPLE_PATHS)
        if kind == "key":
            return self._pick(SAMPLE_KEYS)
        if kind == "number":
            return int(self.np_random.integers(-300, 301))
        if kind == "wait":
            return int(self.np_random.integers(0, 20))
        if kind == "button":
            return "left"
        if kind == "modifiers":
            return []
        if kind == "options":
            return self._pick(("", "general", ":eyes:", "calendar"))
        return random_text(self.np_random, 0, 30)

    def __repr__(self) -> str:
        return f"BrowserActionSpace({self.max_length})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, BrowserActionSpace) and other.max_length == self.max_length
