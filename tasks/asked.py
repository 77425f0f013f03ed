"""The check of an ask-the-requester task: the persona asked, was told, then acted.

`Asked` passes when, among the episode's new chat messages, the requester (the
simulated colleague, `officegym.tasks.responders`) stated the hidden fact in reply to a
request of the persona in the same conversation, and that reply came before the
persona's acting write (`ActedAt`: the earliest new row the write leaves, by its
timestamp on the world's clock). A right value written before asking, or without
asking, fails: the value must come from the conversation, not from a guess.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Connection

from officegym.tasks.checks import Check, GradeContext, free_where, resolve
from officegym.tasks.freedom import Free
from officegym.tasks.hidden import Hidden
from officegym.tasks.slack.said import dm_of
from officegym.tasks.statements import Says

__all__ = ["ActedAt", "Asked"]


@dataclass(frozen=True)
class ActedAt:
    """When the persona acted: the earliest `column` of the rows of `table` matching
    `where` that the episode inserted (a history row, a new message, a reservation)."""

    table: str
    where: Mapping[str, Any]
    column: str

    def time(self, g: GradeContext) -> dt.datetime | None:
        stamps = [r[self.column] for r in g.new_rows(self.table, resolve(self.where, g))]
        return min(stamps) if stamps else None


@dataclass(frozen=True, kw_only=True)
class Asked(Check):
    """`persona_id` asked the requester of `hidden` (a message that asks: `Says` with
    act="request", not the goal posted back), the requester's reply in the same
    conversation states the hidden fact, and that reply is older than the acting write
    `acted` (if the episode made one; the checks of the write itself judge its value)."""

    persona_id: int
    hidden: Hidden
    acted: ActedAt
    question: Says = field(default_factory=lambda: Says(act="request", max_chars=1000))

    def evaluate(self, g: GradeContext) -> tuple[bool, str]:
        told = [
            r
            for r in g.new_rows("slack_message", {"user_id": self.hidden.requester_id})
            if not r["is_deleted"] and self.hidden.fact.judge(r["text"])[0]
        ]
        asked = [r for r in told if self._asked_before(g, r)]
        if not told:
            return False, f"{self.hidden.requester} never stated {self.hidden.fact.describe()}"
        if not asked:
            return False, "the requester's answer follows no question of the persona"
        acted = self.acted.time(g)
        first = min(r["created_at"] for r in asked)
        if acted is not None and acted < first:
            return False, f"acted at {acted:%H:%M:%S}, before being told at {first:%H:%M:%S}"
        return True, f"asked {self.hidden.requester} and was told before acting"

    def frees(self, initial: Connection) -> Sequence[Free]:
        """The text of the persona's top-level messages in their DM with the requester
        (where the reference asks): a question is judged as a request (`question`), not
        compared with the reference's words. Elsewhere their text is the reference's."""
        dm = dm_of(initial, self.persona_id, self.hidden.requester_id)
        where = {"user_id": self.persona_id, "channel_id": dm, "thread_parent_id": None}
        why = f"judged by {self.name!r} as a request"
        return (Free("slack_message", ("text",), why, free_where(where, initial)),)

    def _asked_before(self, g: GradeContext, reply: Mapping[str, Any]) -> bool:
        """Whether a persona message of the reply's conversation, older than it, asks."""
        thread = reply["thread_parent_id"]
        mine = [
            r
            for r in g.new_rows("slack_message", {"user_id": self.persona_id})
            if r["channel_id"] == reply["channel_id"]
            and r["id"] < reply["id"]
            and not r["is_deleted"]
            and (thread is None or thread in (r["id"], r["thread_parent_id"]))
        ]
        return any(self.question.judge(r["text"], g.goal)[0] for r in mine)
