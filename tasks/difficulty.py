"""Difficulty as a knob: the levels a template can be built at and the knob values of each.

A template may declare knobs, one value per level (easy, medium, hard):
``@template("crm.x", difficulty="medium", knobs={"distractors": (0, 2, 4)})``; its build
function then takes a third argument, a `Level`, and reads ``level.distractors``. A
template without knobs has one level, the one it declares.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

__all__ = ["LEVELS", "Difficulty", "Level", "check_knobs", "level_name", "make_level"]

Difficulty = Literal["easy", "medium", "hard"]
LEVELS: tuple[Difficulty, ...] = ("easy", "medium", "hard")


def level_name(value: object) -> Difficulty:
    """The level `value` names: ``"easy"``/``"medium"``/``"hard"`` or ``0``/``1``/``2``;
    anything else is a ValueError naming the allowed values."""
    if isinstance(value, str) and value in LEVELS:
        return value  # type: ignore[return-value]
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(LEVELS):
        return LEVELS[value]
    raise ValueError(f"unknown difficulty {value!r}; use one of {', '.join(LEVELS)} (or 0, 1, 2)")


@dataclass(frozen=True)
class Level:
    """One level of a template: its name and the knob values it is built with
    (``level.distractors`` reads the knob ``distractors``)."""

    name: Difficulty
    params: Mapping[str, Any] = field(default_factory=dict)

    @property
    def index(self) -> int:
        """0 for easy, 1 for medium, 2 for hard."""
        return LEVELS.index(self.name)

    def __getattr__(self, knob: str) -> Any:
        params = self.__dict__.get("params", {})
        if knob in params:
            return params[knob]
        raise AttributeError(f"level {self.__dict__.get('name')!r} has no knob {knob!r}")


def check_knobs(template_id: str, knobs: Mapping[str, Any]) -> dict[str, tuple[Any, ...]]:
    """`knobs` as a dict of 3-tuples, or a ValueError naming the template and the knob."""
    checked: dict[str, tuple[Any, ...]] = {}
    for name, values in knobs.items():
        if not name.isidentifier() or name.startswith("_") or name in ("name", "params", "index"):
            raise ValueError(f"template {template_id}: knob name {name!r} is not usable")
        if not isinstance(values, tuple | list) or len(values) != len(LEVELS):
            raise ValueError(
                f"template {template_id}: knob {name!r} needs one value per level "
                f"({', '.join(LEVELS)}), got {values!r}"
            )
        checked[name] = tuple(values)
    if knobs and len({tuple(v[i] for v in checked.values()) for i in range(3)}) != 3:
        raise ValueError(f"template {template_id}: its knobs must differ between every level")
    return checked


def make_level(knobs: Mapping[str, tuple[Any, ...]], name: Difficulty) -> Level:
    """The `Level` called `name` of a template with `knobs`."""
    i = LEVELS.index(name)
    return Level(name, {k: v[i] for k, v in knobs.items()})
