"""Firing tool calls at one world at the same moment, each from its own thread, session
and database connection (the race tests of every app use it)."""

from __future__ import annotations

import threading
from typing import Any

from officegym.runner import CallOutcome, ToolRunner
from officegym.world import World

__all__ = ["at_once"]


def at_once(w: World, calls: list[tuple[str, str, dict[str, Any]]]) -> list[CallOutcome]:
    """Run each (persona, tool, arguments) on a thread and `ToolRunner` of its own, all
    released together by a barrier; the outcomes in the order of `calls`."""
    start = threading.Barrier(len(calls), timeout=60)
    outcomes: list[CallOutcome | None] = [None] * len(calls)

    def run(i: int, persona: str, name: str, arguments: dict[str, Any]) -> None:
        runner = ToolRunner(w, persona)
        try:
            start.wait()
            outcomes[i] = runner.call(name, arguments)
        finally:
            runner.close()

    threads = [threading.Thread(target=run, args=(i, *c)) for i, c in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert all(o is not None for o in outcomes), outcomes
    return outcomes  # type: ignore[return-value]
