"""What a person said in the chat during an episode: the one check on new messages.

Every template that asks the persona to post, reply in a thread or send a direct
message grades it here, with a `Says` (`officegym.tasks.statements`) for the
content. All of the persona's new messages in that place are read together, so
spreading candidate answers over several messages hedges no better than
listing them in one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Connection, select

from officegym.apps.slack.channels import dm_key
from officegym.apps.slack.models import Channel
from officegym.tasks.checks import Check, GradeContext, NewRowId, free_where, resolve
from officegym.tasks.freedom import Free
from officegym.tasks.statements import Says

__all__ = ["CLAIMING", "Said", "dm_of"]

CLAIMING = ("confirm", "report")  # the acts that say work was done


@dataclass(frozen=True, kw_only=True)
class Said(Check):
    """`author_id` said what `says` asks in new, live messages: at the top level of
    `channel_id` (a `NewRowId` for a channel the task creates), in the thread of message
    `thread_of`, or in a direct message with exactly `dm_to` (give one of the three).
    A message that confirms or reports work (`act="confirm"` or `"report"`) `claims` it:
    it is credited only when that work is done (`officegym.tasks.claims`)."""

    author_id: int
    says: Says = field(default_factory=Says)
    channel_id: int | NewRowId | None = None
    thread_of: int | None = None
    dm_to: int | None = None

    def __post_init__(self) -> None:
        places = [self.channel_id, self.thread_of, self.dm_to]
        if sum(p is not None for p in places) != 1:
            raise ValueError("Said needs exactly one of channel_id, thread_of, dm_to")

    @property
    def claims(self) -> bool:
        return self.says.act in CLAIMING

    def evaluate(self, g: GradeContext) -> tuple[bool, str]:
        texts = [r["text"] for r in self._messages(g) if not r["is_deleted"]]
        if not texts:
            return False, f"no new message {self._place()}"
        ok, detail = self.says.judge("\n".join(texts), g.goal, g.words)
        return ok, f"{len(texts)} new message(s) {self._place()}: {detail}"

    def frees(self, initial: Connection) -> Sequence[Free]:
        """The text of the author's messages in the place this check reads (the thread, the
        channel, the DM with `dm_to`): the `Says` judges it there, not equality; elsewhere
        their text is compared with the reference's."""
        where: dict[str, Any] = {"user_id": self.author_id, "thread_parent_id": self.thread_of}
        if self.channel_id is not None:
            where["channel_id"] = self.channel_id
        elif self.dm_to is not None:
            where["channel_id"] = dm_of(initial, self.author_id, self.dm_to)
        why = f"judged by {self.name!r}"
        return (Free("slack_message", ("text",), why, free_where(where, initial)),)

    def _messages(self, g: GradeContext) -> list[dict]:
        if self.thread_of is not None:
            return g.new_rows(
                "slack_message", {"user_id": self.author_id, "thread_parent_id": self.thread_of}
            )
        top = g.new_rows("slack_message", {"user_id": self.author_id, "thread_parent_id": None})
        if self.channel_id is not None:
            channel_id = resolve({"id": self.channel_id}, g)["id"]
            return [r for r in top if r["channel_id"] == channel_id]
        places = {r["channel_id"] for r in top}
        dms = {c for c in places if self._is_dm_with_recipient(g, c)}
        return [r for r in top if r["channel_id"] in dms]

    def _is_dm_with_recipient(self, g: GradeContext, channel_id: int) -> bool:
        channel = g.rows("slack_channel", {"id": channel_id})
        if not channel or channel[0]["kind"] != "dm":
            return False
        members = {r["person_id"] for r in g.rows("slack_membership", {"channel_id": channel_id})}
        return members == {self.author_id, self.dm_to}

    def _place(self) -> str:
        if self.thread_of is not None:
            return f"in the thread of message {self.thread_of}"
        if self.channel_id is not None:
            return f"in channel {self.channel_id}"
        return f"in a DM with person {self.dm_to}"


def dm_of(initial: Connection, a: int, b: int) -> int | NewRowId:
    """The DM of persons `a` and `b` before the episode, else the one the episode opens."""
    key = dm_key([a, b])
    found = initial.execute(
        select(Channel.id).where(Channel.kind == "dm", Channel.dm_key == key)
    ).scalar()
    return found if found is not None else NewRowId("slack_channel", {"dm_key": key})
