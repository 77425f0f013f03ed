"""Simulated time: a world's clock is frozen at the scenario's date and moves one
second per reading, so timestamps are distinct, ordered and reproducible."""

from __future__ import annotations

import datetime as dt

from sqlalchemy.orm import Session

__all__ = ["UNCLOCKED", "SimClock", "now", "peek"]

# The simulated time of a session opened outside a world (no clock in its info: an
# ad-hoc engine in a test or a tool reading a database file). Worlds never use it:
# their clock starts at the scenario's date.
UNCLOCKED = dt.datetime(2026, 1, 1)


class SimClock:
    """A frozen clock that ticks one second each time it is read."""

    def __init__(self, start: dt.datetime) -> None:
        self.start = start
        self.ticks = 0

    def now(self) -> dt.datetime:
        self.ticks += 1
        return self.start + dt.timedelta(seconds=self.ticks)

    def peek(self) -> dt.datetime:
        """The current simulated time without advancing it."""
        return self.start + dt.timedelta(seconds=self.ticks)

    def set(self, start: dt.datetime) -> None:
        """Jump to `start` (used by seeders writing history at past times)."""
        self.start = start
        self.ticks = 0

    def reset(self, start: dt.datetime | None = None) -> None:
        self.start = start or self.start
        self.ticks = 0


def now(session: Session) -> dt.datetime:
    """The next simulated timestamp of the world this session belongs to."""
    clock = session.info.get("clock")
    if clock is None:
        raise RuntimeError("session has no simulated clock; open it with World.session()")
    return clock.now()


def peek(session: Session) -> dt.datetime:
    """The simulated time of the world this session belongs to, without advancing it
    (`UNCLOCKED` for a session that has no clock): the one "today" of every app."""
    clock = session.info.get("clock")
    return clock.peek() if clock is not None else UNCLOCKED
