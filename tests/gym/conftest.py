"""Fixtures for the Gym tests: environments over the default world (image cached)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from officegym.gym import OfficeEnv
from officegym.tasks import load_templates


def template_ids() -> list[str]:
    """Every registered Slack template id, sorted (the fixtures below are Slack envs)."""
    return sorted(t for t in load_templates() if t.startswith("slack."))


@pytest.fixture(scope="module")
def slack_env() -> Iterator[OfficeEnv]:
    """One Slack tools-mode env for the module (each test resets it)."""
    env = OfficeEnv(app="slack")
    yield env
    env.close()
