"""A curriculum sampler: which (template, level) arm an env resets to next.

Method: absolute learning progress (ALP) over discrete arms, the bandit teacher of
Portelas et al. 2020 ("Teacher algorithms for curriculum learning of Deep RL in
continuously parameterized environments") with the fast/slow moving-average form of
Kanitscheider et al. 2021, restricted to a target band of pass rates. Each arm keeps a
fast and a slow exponential moving average of its episodes' outcomes (1 passed, 0 not,
as graded at the episode's end); learning progress is their absolute difference. An
arm whose estimated pass rate (the fast average) lies in the band is drawn with weight
``progress + explore``; one outside it with weight ``outside`` (small), and with
probability ``epsilon`` an arm is drawn uniformly. As the agent improves, easy arms
rise above the band and hard ones climb into it, so sampling shifts toward harder
levels. Estimates start from a calibration file when one is given
(`officegym.gym.calibration`), else at the band's middle; they move with the outcomes
the env observes at each episode's end. Draws use the env's `np_random`, so a seeded
env samples the same arms.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from officegym.gym.calibration import load_calibration
from officegym.tasks import load_templates

__all__ = ["METHODS", "Arm", "LearningProgressCurriculum", "make_curriculum"]

METHODS = ("learning-progress",)


@dataclass
class Arm:
    """One (template, level): episodes seen and the two moving averages of its outcomes."""

    template: str
    level: str
    fast: float
    slow: float
    episodes: int = 0

    @property
    def progress(self) -> float:
        """Absolute learning progress: how fast the arm's pass rate is moving."""
        return abs(self.fast - self.slow)


@dataclass
class LearningProgressCurriculum:
    """Samples arms whose pass rate lies in `band`, preferring those with most progress."""

    arms: list[Arm]
    band: tuple[float, float] = (0.1, 0.7)
    fast_rate: float = 0.2
    slow_rate: float = 0.05
    explore: float = 0.05  # weight added to every in-band arm (new arms get tried)
    outside: float = 0.002  # weight of an arm outside the band
    epsilon: float = 0.05  # share of uniform draws
    _index: dict[tuple[str, str], Arm] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        low, high = self.band
        if not 0.0 <= low < high <= 1.0:
            raise ValueError(f"curriculum band must be [low, high] in [0, 1], not {self.band}")
        if not self.arms:
            raise ValueError("a curriculum needs at least one (template, level) arm")
        for name in ("fast_rate", "slow_rate", "explore", "outside", "epsilon"):
            if not 0.0 <= getattr(self, name) <= 1.0:
                raise ValueError(f"curriculum {name} must lie in [0, 1], not {getattr(self, name)}")
        self._index = {(a.template, a.level): a for a in self.arms}

    def in_band(self, arm: Arm) -> bool:
        return self.band[0] <= arm.fast <= self.band[1]

    def weights(self) -> np.ndarray:
        """The probability of drawing each arm next (in `arms` order)."""
        raw = np.array(
            [a.progress + self.explore if self.in_band(a) else self.outside for a in self.arms]
        )
        greedy = raw / raw.sum() if raw.sum() > 0 else np.full(len(raw), 1 / len(raw))
        return (1 - self.epsilon) * greedy + self.epsilon / len(raw)

    def choose(self, rng: np.random.Generator) -> tuple[str, str]:
        """The (template, level) of the next episode, drawn with the env's generator."""
        arm = self.arms[int(rng.choice(len(self.arms), p=self.weights()))]
        return arm.template, arm.level

    def observe(self, template: str, level: str, passed: bool | float) -> None:
        """Fold an episode's outcome (passed, or a success score in [0, 1]) into its arm
        (arms not in the curriculum are ignored: an episode the options fixed elsewhere)."""
        arm = self._index.get((template, level))
        if arm is None:
            return
        success = float(passed)
        arm.episodes += 1
        arm.fast += self.fast_rate * (success - arm.fast)
        arm.slow += self.slow_rate * (success - arm.slow)

    def snapshot(self) -> dict[str, Any]:
        """The sampler's state: method, band and, per arm, episodes, rate, progress and the
        probability of being drawn next."""
        probs = self.weights()
        return {
            "method": "learning-progress",
            "band": list(self.band),
            "arms": [
                {
                    "template": a.template,
                    "difficulty": a.level,
                    "episodes": a.episodes,
                    "rate": round(a.fast, 6),
                    "progress": round(a.progress, 6),
                    "in_band": self.in_band(a),
                    "probability": round(float(p), 6),
                }
                for a, p in zip(self.arms, probs, strict=True)
            ],
        }

    def level_shares(self) -> dict[str, float]:
        """Probability of drawing each level next (summed over templates)."""
        shares: dict[str, float] = {}
        for a, p in zip(self.arms, self.weights(), strict=True):
            shares[a.level] = shares.get(a.level, 0.0) + float(p)
        return shares


def make_curriculum(
    spec: str | Mapping[str, Any] | LearningProgressCurriculum | None, templates: Sequence[str]
) -> LearningProgressCurriculum | None:
    """The curriculum an env's ``curriculum=`` names: None, ``"learning-progress"``, a
    mapping (``method``, ``band``, ``calibration`` file, and the rates and weights of
    `LearningProgressCurriculum`) or a curriculum already made."""
    if spec is None or isinstance(spec, LearningProgressCurriculum):
        return spec
    config = {"method": spec} if isinstance(spec, str) else dict(spec)
    method = config.pop("method", "learning-progress")
    if method not in METHODS:
        raise ValueError(f"unknown curriculum method {method!r}; use one of {', '.join(METHODS)}")
    band = tuple(config.pop("band", (0.1, 0.7)))
    if len(band) != 2:
        raise ValueError(f"curriculum band must be [low, high], not {band}")
    rates = _calibrated(config.pop("calibration", None))
    known = {"fast_rate", "slow_rate", "explore", "outside", "epsilon"}
    if set(config) - known:
        raise ValueError(
            f"unknown curriculum setting(s) {sorted(set(config) - known)}; use method, band, "
            f"calibration, {', '.join(sorted(known))}"
        )
    start = (band[0] + band[1]) / 2
    registry = load_templates()
    arms = [
        Arm(t, lv, rates.get((t, lv), start), rates.get((t, lv), start))
        for t in templates
        for lv in registry[t].levels
    ]
    return LearningProgressCurriculum(arms, (float(band[0]), float(band[1])), **config)


def _calibrated(path: str | Path | None) -> dict[tuple[str, str], float]:
    return {} if path is None else load_calibration(path).rates()
