"""The learning-progress curriculum: it moves to harder levels as skill grows, samples arms
outside the band less, starts from a calibration file, is seeded by the env, and shows its
state."""

from __future__ import annotations

import math
from pathlib import Path

import gymnasium
import numpy as np
import pytest

import officegym  # noqa: F401  (registers the envs)
from officegym.gym.agents import make_agent
from officegym.gym.calibration import Calibration, Entry
from officegym.gym.curriculum import LearningProgressCurriculum, make_curriculum
from officegym.gym.rollout import run_episode

TEMPLATES = ("crm.advance-stage", "crm.close-case", "crm.update-deal")
LEVEL_INDEX = {"easy": 0, "medium": 1, "hard": 2}


def _skill_run(curriculum: LearningProgressCurriculum, episodes: int) -> list[dict[str, float]]:
    """Play a synthetic learner whose skill grows from 0 to 3: a level L episode passes with
    probability sigmoid(4 (skill - L - 0.5)). Returns the share of each level drawn in
    each fifth of the run."""
    rng, outcomes = np.random.default_rng(7), np.random.default_rng(8)
    windows: list[dict[str, float]] = []
    counts = dict.fromkeys(LEVEL_INDEX, 0)
    for t in range(episodes):
        skill = 3.0 * t / episodes
        template, level = curriculum.choose(rng)
        p = 1 / (1 + math.exp(-4 * (skill - LEVEL_INDEX[level] - 0.5)))
        curriculum.observe(template, level, float(outcomes.random() < p))
        counts[level] += 1
        if (t + 1) % (episodes // 5) == 0:
            total = sum(counts.values())
            windows.append({lv: n / total for lv, n in counts.items()})
            counts = dict.fromkeys(LEVEL_INDEX, 0)
    return windows


def test_the_sampler_shifts_to_harder_levels_as_the_learner_improves() -> None:
    curriculum = make_curriculum("learning-progress", TEMPLATES)
    assert curriculum is not None
    windows = _skill_run(curriculum, 3000)
    first, last = windows[0], windows[-1]
    assert first["easy"] > first["hard"]
    assert last["hard"] > last["easy"]
    assert last["hard"] > first["hard"] + 0.3 and last["easy"] < first["easy"] - 0.3


def test_arms_outside_the_band_are_drawn_less() -> None:
    curriculum = make_curriculum({"band": [0.2, 0.6]}, TEMPLATES)
    assert curriculum is not None
    for arm in curriculum.arms:  # easy mastered, medium in the band, hard out of reach
        rate = {"easy": 0.95, "medium": 0.4, "hard": 0.0}[arm.level]
        arm.fast = arm.slow = rate
    shares = curriculum.level_shares()
    assert shares["medium"] > 0.8 and shares["easy"] < 0.1 and shares["hard"] < 0.1
    snap = curriculum.snapshot()
    assert snap["method"] == "learning-progress" and snap["band"] == [0.2, 0.6]
    assert math.isclose(sum(a["probability"] for a in snap["arms"]), 1.0, abs_tol=1e-5)
    assert {a["in_band"] for a in snap["arms"] if a["difficulty"] == "medium"} == {True}


def _calibration(path: Path) -> Path:
    rates = {"easy": (20, 20), "medium": (8, 20), "hard": (0, 20)}
    entries = [
        Entry.measure(t, lv, [1.0] * k + [0.0] * (n - k), [True] * k + [False] * (n - k))
        for t in TEMPLATES
        for lv, (k, n) in rates.items()
    ]
    Calibration(agent="noisy:0.3", rollouts=20, entries=entries).save(path)
    return path


def test_an_env_curriculum_starts_from_a_calibration_file_and_shows_its_state(
    tmp_path: Path,
) -> None:
    spec = {
        "method": "learning-progress",
        "band": [0.1, 0.7],
        "calibration": str(_calibration(tmp_path / "c.json")),
    }
    env = gymnasium.make("officegym/crm-v0", curriculum=spec)
    try:
        arms = env.unwrapped.curriculum.snapshot()["arms"]
        calibrated = {
            (a["template"], a["difficulty"]): a for a in arms if a["template"] in TEMPLATES
        }
        for t in TEMPLATES:
            medium, easy, hard = (calibrated[t, lv] for lv in ("medium", "easy", "hard"))
            assert medium["rate"] == 0.4 and medium["in_band"]
            assert not easy["in_band"] and not hard["in_band"]
            assert medium["probability"] > 5 * max(easy["probability"], hard["probability"])
        arm_ids = {(a["template"], a["difficulty"]) for a in arms}
        for seed in range(4):
            _, info = env.reset(seed=seed)
            assert (info["task"]["id"], info["task"]["difficulty"]) in arm_ids
    finally:
        env.close()


def test_an_env_curriculum_is_seeded_by_the_env_and_learns_from_episode_ends() -> None:
    def arms_drawn() -> tuple[list[tuple[str, str]], int]:
        env = gymnasium.make("officegym/crm-v0", curriculum="learning-progress")
        agent = make_agent("oracle")
        try:
            drawn = []
            for seed in range(4):
                result = run_episode(env, agent, seed=seed)
                drawn.append((result.task_id, env.unwrapped.task.difficulty))
            episodes = sum(a["episodes"] for a in env.unwrapped.curriculum.snapshot()["arms"])
            return drawn, episodes
        finally:
            env.close()

    first, episodes = arms_drawn()
    assert arms_drawn() == (first, 4)
    assert episodes == 4


def test_options_that_name_the_task_and_level_override_the_curriculum() -> None:
    env = gymnasium.make("officegym/crm-v0", curriculum="learning-progress")
    try:
        _, info = env.reset(seed=0, options={"task": "crm.close-case", "difficulty": "hard"})
        assert (info["task"]["id"], info["task"]["difficulty"]) == ("crm.close-case", "hard")
        assert info["task"]["params"] == {"rows": 3}
    finally:
        env.close()


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("plr", "unknown curriculum method 'plr'"),
        ({"band": [0.8, 0.2]}, "band"),
        ({"band": [0.1]}, "band"),
        ({"temperature": 2}, "unknown curriculum setting"),
        ({"epsilon": 2.0}, "epsilon"),
    ],
)
def test_a_bad_curriculum_is_refused_at_construction(spec: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make_curriculum(spec, TEMPLATES)  # type: ignore[arg-type]
