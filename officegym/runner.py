"""Run tool calls against a world as one person: the single place where a call is
validated, executed, committed on success and rolled back on failure.

The Gym's tools mode, the MCP servers, the oracle and the tests all go through
`ToolRunner`, so a failed call never leaves half a change behind.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import event
from sqlalchemy.orm import Session

from officegym import memo
from officegym.apps.org.models import Person
from officegym.apps.org.service import find_person
from officegym.errors import OfficeGymError
from officegym.tools import ToolContext, call_tool, load_tools
from officegym.world import World

__all__ = ["CallOutcome", "ToolRunner"]


@dataclass(frozen=True)
class CallOutcome:
    """The result of one call: `ok` with a JSON-able `result`, or an `error` message."""

    ok: bool
    result: Any = None
    error: str | None = None
    code: str | None = None


class ToolRunner:
    """Executes tool calls for `persona` on `world`, one session per runner.

    The runner owns the world while it lives: its session keeps what it loaded (and
    memoizes look-ups) across calls, so nobody else may write the world meanwhile.
    Servers shared with other writers make a runner per call (see mcp_wrappers).
    """

    def __init__(self, world: World, persona: str) -> None:
        load_tools()
        self.world = world
        self.session: Session = world.session()
        memo.enable(self.session)
        # The identity map holds objects weakly; keeping what a runner loaded alive
        # lets later calls reuse it (relationships, the actor) instead of re-selecting.
        self._loaded: list[object] = []
        event.listen(self.session, "loaded_as_persistent", self._keep)
        event.listen(self.session, "pending_to_persistent", self._keep)
        event.listen(self.session, "detached_to_persistent", self._keep)  # writes.insert_row
        self._actors: dict[str, Person] = {}
        self._act_as(persona)

    def restart(self, persona: str) -> None:
        """Begin again on the world just reset, as `persona`: forget everything loaded
        (it may describe the previous episode) but keep the session (cheaper than anew)
        and the people acted as (the directory never changes)."""
        self.session.close()
        self._loaded.clear()
        memo.forget(self.session)
        self._act_as(persona)

    def _act_as(self, persona: str) -> None:
        actor = self._actors.get(persona)
        if actor is None:
            actor = self._actors[persona] = find_person(self.session, persona)
        else:
            self.session.add(actor)  # detached by close(), attributes still loaded
        self.actor, self.actor_id = actor, actor.id
        self.session.commit()

    def _keep(self, _session: Session, instance: object) -> None:
        self._loaded.append(instance)

    def call(self, name: str, arguments: Mapping[str, Any] | None = None) -> CallOutcome:
        """Run one call; domain errors become an error outcome and change nothing."""
        ctx = ToolContext(self.session, self.actor_id, self.actor)
        try:
            result = call_tool(ctx, name, arguments if arguments is not None else {})
            self.session.commit()
            return CallOutcome(True, result=result)
        except OfficeGymError as exc:
            self.session.rollback()
            return CallOutcome(False, error=exc.message, code=exc.code)
        except Exception as exc:  # a bug must not end an episode; tests assert none occur
            self.session.rollback()
            return CallOutcome(
                False, error=f"internal error: {type(exc).__name__}", code="internal_error"
            )

    def close(self) -> None:
        self.session.close()
        self._loaded.clear()
