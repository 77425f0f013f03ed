"""The state verifiers keeps per rollout of officegym's native tool calling, shared by the
tool server (`officegym_verifiers.toolset`, which writes it) and the task's rewards (which
read it)."""

from __future__ import annotations

import asyncio
from typing import Any

import verifiers.v1 as vf
from pydantic import Field, PrivateAttr

__all__ = ["OfficeState"]


class OfficeState(vf.State):
    """What a rollout did: its calls as stepped, and the grade once the episode ended."""

    calls: list[dict[str, Any]] = Field(default_factory=list)
    reward: float | None = None
    passed: bool | None = None
    # The replayed grade of an episode that ended without `submit`, shared by the rewards.
    _replay: asyncio.Future[tuple[float, bool]] | None = PrivateAttr(default=None)
