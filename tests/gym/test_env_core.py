"""Both envs take their episode settings as one typed object or as keyword options."""

from __future__ import annotations

import pytest

from officegym.gym.env_core import EpisodeSettings
from officegym.gym.tools_env import OfficeEnv


def test_a_settings_object_draws_the_episodes_its_keywords_draw() -> None:
    by_object = OfficeEnv(EpisodeSettings(app="crm", max_steps=7, split="test"))
    by_keywords = OfficeEnv(app="crm", max_steps=7, split="test")
    try:
        first, _ = by_object.reset(seed=3)
        second, _ = by_keywords.reset(seed=3)
        assert first == second
        assert by_object.task == by_keywords.task
        assert by_object.max_steps == by_keywords.max_steps == 7
    finally:
        by_object.close()
        by_keywords.close()


def test_an_unknown_option_is_named_with_the_known_ones() -> None:
    with pytest.raises(TypeError, match=r"unknown env option\(s\) \['max_stpes'\].*max_steps"):
        OfficeEnv(app="crm", max_stpes=3)


def test_settings_and_keywords_together_are_refused() -> None:
    with pytest.raises(TypeError, match="not both"):
        OfficeEnv(EpisodeSettings(app="crm"), split="test")


def test_bad_settings_fail_when_made() -> None:
    with pytest.raises(ValueError, match="unknown split"):
        EpisodeSettings(app="crm", split="later")
    with pytest.raises(ValueError, match="max_steps"):
        EpisodeSettings(app="crm", max_steps=0)
