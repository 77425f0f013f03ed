"""Steps: the unit templates are written in.

A step is one piece of the work a goal asks for (post a message, book a stay, reassign a
deal, write a range) and carries everything that piece means for grading: the reference
calls that do it, the checks of the state those calls leave, the changes it allows and
what in that state is free, each with its reason. A template composes steps,
``Spec(goal=..., persona=..., steps=[...])``, so a long or cross-app task adds a step
instead of keeping checks, allowances and calls in three lists by hand.

Each app's step builders live beside its other template helpers
(``officegym.tasks.<app>.common``); the ones every app shares are in
``officegym.tasks.common``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from officegym.tasks.checks import Allow, Check
from officegym.tasks.freedom import Free
from officegym.tasks.mutants import Equivalent
from officegym.tools import ToolCall

__all__ = ["Step", "flatten"]


@dataclass(frozen=True)
class Step:
    """One piece of a task's work: its reference `calls`, the `checks` of the state they
    leave, the changes it `allowed`, what of its end state is `free` and the mutants of
    its calls it cannot tell apart (`equivalent`). A step may be calls only (a search the
    reference makes before acting) or checks only (a state no call of the step makes)."""

    calls: Sequence[ToolCall] = ()
    checks: Sequence[Check] = ()
    allowed: Sequence[Allow] = ()
    free: Sequence[Free] = ()
    equivalent: Sequence[Equivalent] = field(default_factory=tuple)

    def __add__(self, other: Step) -> Step:
        """Two steps as one, in order (a builder that extends another's step)."""
        return flatten((self, other))


def flatten(steps: Iterable[Step]) -> Step:
    """The steps as one: calls, checks, allowances, freedoms and equivalences in step
    order (what a `Task` holds)."""
    steps = tuple(steps)
    return Step(
        calls=_joined(s.calls for s in steps),
        checks=_joined(s.checks for s in steps),
        allowed=_joined(s.allowed for s in steps),
        free=_joined(s.free for s in steps),
        equivalent=_joined(s.equivalent for s in steps),
    )


def _joined(parts: Iterable[Sequence]) -> tuple:
    return tuple(item for part in parts for item in part)
