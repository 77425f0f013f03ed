"""Fault injection: a seeded fraction of tool calls fails the way real APIs fail.

Agents trained only on an API that always answers never learn to retry. With
``gymnasium.make(..., faults=0.1)`` (``officegym rollout --faults 0.1``) about a tenth
of the tool calls of an episode meet one of:

- ``rate_limited``: HTTP 429, retry later;
- ``timeout``: the server did not answer in time;
- ``server_error``: HTTP 500;
- ``stale_read``: a read tool answers what the same call answered earlier in the
  episode (a cache that has not caught up), without any error; only a read repeated
  with the same arguments can be stale.

A failed call never reaches the world (nothing is written), so a grade read from the
final state is the same as without faults once the agent has retried. Which calls fail
depends only on (``fault_seed``, task, task seed) and the order of the calls, never on
the env's own random stream, so turning faults on changes no task a reset picks. The
step's ``info["fault"]`` names the fault, so trajectories record it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Literal

__all__ = ["FAULT_KINDS", "Fault", "FaultInjector", "check_fault_rate"]

FaultKind = Literal["rate_limited", "timeout", "server_error", "stale_read"]
FAULT_KINDS: tuple[FaultKind, ...] = ("rate_limited", "timeout", "server_error", "stale_read")
_ERRORS: dict[str, str] = {
    "rate_limited": "HTTP 429 Too Many Requests: rate limited, retry after 1 second",
    "timeout": "the request timed out: the server did not answer within 30 seconds",
    "server_error": "HTTP 500 Internal Server Error",
}


@dataclass(frozen=True)
class Fault:
    """One injected fault: its kind and the error text the agent reads ("" for stale reads)."""

    kind: FaultKind
    message: str


def check_fault_rate(rate: float) -> float:
    """`rate` as a float in [0, 1), or ValueError saying what is allowed."""
    if isinstance(rate, bool) or not isinstance(rate, int | float) or not 0 <= rate < 1:
        raise ValueError(f"faults must be a fraction of tool calls in [0, 1), not {rate!r}")
    return float(rate)


class FaultInjector:
    """Decides, call by call, whether a tool call fails and how (two draws per call)."""

    def __init__(self, rate: float, seed: int = 0) -> None:
        self.rate = check_fault_rate(rate)
        self.seed = seed
        self._rng = random.Random(seed)

    def start(self, task_id: str, task_seed: int) -> None:
        """Begin the fault stream of one episode: the same for the same task instance."""
        self._rng = random.Random(f"{self.seed}:{task_id}:{task_seed}")

    def draw(self, *, stale_possible: bool) -> Fault | None:
        """The fault of the next call, or None; a stale read only where one is possible
        (a read repeated with the same arguments), else a 500 in its place."""
        if self.rate == 0:
            return None
        hit, pick = self._rng.random(), self._rng.random()
        if hit >= self.rate:
            return None
        kind = FAULT_KINDS[int(pick * len(FAULT_KINDS))]
        if kind == "stale_read" and not stale_possible:
            kind = "server_error"
        return Fault(kind, _ERRORS.get(kind, ""))
