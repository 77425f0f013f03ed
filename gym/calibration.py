"""The calibration file: measured pass rates per (template, level), with Wilson 95% intervals.

`officegym calibrate` writes it and a curriculum (`officegym.gym.curriculum`) reads it. Its
format is the pydantic model `Calibration` (``format: "officegym-calibration/1"``); a file
that does not fit is refused with its path, the field at fault and the reason.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from officegym.errors import ConfigError

__all__ = [
    "FORMAT",
    "TOO_EASY",
    "Calibration",
    "Entry",
    "Flag",
    "load_calibration",
    "wilson",
]

FORMAT = "officegym-calibration/1"
TOO_EASY = 0.7  # above this pass rate a template teaches little
Z95 = 1.959963984540054
Flag = Literal["impossible", "zero", "too-easy"]


def wilson(passed: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a pass rate (95% by default); (0, 1) for no episodes."""
    if n <= 0:
        return 0.0, 1.0
    p = passed / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


class Entry(BaseModel):
    """One (template, level): episodes played, passes, the rate and its 95% interval.
    `flag`: ``impossible`` (0% and the reference solution fails too), ``zero`` (0% though
    the reference passes: hard, not broken) or ``too-easy`` (above 70%)."""

    model_config = ConfigDict(extra="forbid")

    template: str = Field(pattern=r"^[a-z0-9]+\.[a-z0-9]+(-[a-z0-9]+)*$")
    difficulty: Literal["easy", "medium", "hard"]
    episodes: int = Field(ge=1)
    passed: int = Field(ge=0)
    mean_reward: float = Field(ge=0.0, le=1.0)
    pass_rate: float = Field(ge=0.0, le=1.0)
    ci_low: float = Field(ge=0.0, le=1.0)
    ci_high: float = Field(ge=0.0, le=1.0)
    flag: Flag | None = None
    reference_passes: bool | None = None  # checked for the entries at 0%
    # With `Calibration.attack`: the same episodes with an attack planted (those planted).
    attacked: int | None = Field(default=None, ge=0)
    utility_under_attack: float | None = Field(default=None, ge=0.0, le=1.0)
    attack_success: float | None = Field(default=None, ge=0.0, le=1.0)

    @model_validator(mode="after")
    def _consistent(self) -> Entry:
        if self.passed > self.episodes:
            raise ValueError(f"passed ({self.passed}) exceeds episodes ({self.episodes})")
        if abs(self.pass_rate - self.passed / self.episodes) > 1e-6:
            raise ValueError(f"pass_rate {self.pass_rate} is not passed / episodes")
        if not self.ci_low <= self.pass_rate <= self.ci_high:
            raise ValueError("pass_rate lies outside [ci_low, ci_high]")
        return self

    @classmethod
    def measure(
        cls, template: str, difficulty: str, rewards: list[float], passes: list[bool]
    ) -> Entry:
        """The entry of some episodes' rewards and pass marks (flags left to the caller)."""
        n, k = len(passes), sum(passes)
        low, high = wilson(k, n)
        return cls(
            template=template,
            difficulty=difficulty,  # type: ignore[arg-type]
            episodes=n,
            passed=k,
            mean_reward=round(sum(rewards) / n, 6),
            pass_rate=k / n,
            ci_low=round(low, 6),
            ci_high=round(high, 6),
            flag="too-easy" if k / n > TOO_EASY else None,
        )


class Calibration(BaseModel):
    """A calibration run: the agent, how many rollouts each (template, level) got, where,
    and one `Entry` each."""

    model_config = ConfigDict(extra="forbid")

    format: Literal["officegym-calibration/1"] = FORMAT
    agent: str
    rollouts: int = Field(ge=1)
    split: Literal["train", "test"] = "train"
    scenario: str = "default"
    world_seed: int = 0
    seed: int = 0
    entries: list[Entry]
    attack: str | None = None  # the attack mix measured beside (`officegym.gym.attack`)

    def rates(self) -> dict[tuple[str, str], float]:
        """Pass rate by (template, level)."""
        return {(e.template, e.difficulty): e.pass_rate for e in self.entries}

    def save(self, path: str | Path) -> None:
        """Write the file (a run without an attack writes no attack fields)."""
        fields = {"attacked", "utility_under_attack", "attack_success"}
        skip = None if self.attack else {"attack": True, "entries": {"__all__": fields}}
        text = self.model_dump_json(indent=2, exclude=skip)
        Path(path).write_text(text + "\n", encoding="utf-8")


def load_calibration(path: str | Path) -> Calibration:
    """Read and check a calibration file, or a `ConfigError` naming file, field and reason
    (the first problem; pydantic's message lists the rest)."""
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ConfigError(str(path), "(file)", f"cannot read it: {exc.strerror}") from None
    except json.JSONDecodeError as exc:
        raise ConfigError(str(path), "(file)", f"not JSON: {exc}") from None
    try:
        return Calibration.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "(top)"
        more = f" (and {exc.error_count() - 1} more)" if exc.error_count() > 1 else ""
        raise ConfigError(str(path), where, first["msg"] + more) from None
