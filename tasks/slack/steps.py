"""Step builders for the chat acts Slack templates repeat: invite people to a channel,
react to a message, pin one, and a first direct message (`officegym.tasks.steps`).

Each builder takes what its template computed (ids, names, texts, a `Says`) and draws
nothing from the rng, so a template's instances stay as they were. Posting, replying
and DMs in an existing or per-pair DM are the shared `post_step`, `reply_step` and
`dm_step` of `officegym.tasks.common`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from officegym.tasks.checks import Allow, NewRowId, RowExists
from officegym.tasks.common import call
from officegym.tasks.steps import Step

__all__ = ["invite_step", "pin_step", "react_step"]


def invite_step(
    channel: str,
    channel_id: int | NewRowId,
    invitees: Sequence[Any],
    names: Sequence[str],
    *,
    each: bool = False,
    new: bool = False,
    limit: int | None = None,
) -> Step:
    """Invite `invitees` to `channel` (as the tool names it): a membership check per
    person (named by `names`, `new` to count only memberships the episode adds), and
    either one call and one allowance for `limit` memberships of the channel (default:
    as many as invitees) or, with `each`, a call and an allowance per person."""
    checks = [
        RowExists(
            name=label,
            table="slack_membership",
            where={"channel_id": channel_id, "person_id": p.id},
            new=new,
        )
        for p, label in zip(invitees, names, strict=True)
    ]
    if each:
        calls = [
            call("slack_invite_to_channel", channel=channel, people=[p.handle]) for p in invitees
        ]
        allowed = [
            Allow("slack_membership", where={"channel_id": channel_id, "person_id": p.id})
            for p in invitees
        ]
    else:
        calls = [
            call("slack_invite_to_channel", channel=channel, people=[p.handle for p in invitees])
        ]
        allowed = [
            Allow(
                "slack_membership",
                where={"channel_id": channel_id},
                limit=len(invitees) if limit is None else limit,
            )
        ]
    return Step(calls=calls, checks=checks, allowed=allowed)


def react_step(me: Any, message_id: int, emoji: str, *, name: str, any_emoji: bool = False) -> Step:
    """React to a message with `emoji`: the call, the check of `me`'s reaction and one
    reaction allowed (of that emoji, or with `any_emoji` of any)."""
    where = {"person_id": me.id, "message_id": message_id}
    return Step(
        calls=[call("slack_add_reaction", message_id=message_id, emoji=emoji)],
        checks=[
            RowExists(
                name=name,
                table="slack_reaction",
                where={"message_id": message_id, "person_id": me.id, "emoji": emoji},
            )
        ],
        allowed=[
            Allow(
                "slack_reaction", where=where if any_emoji else {**where, "emoji": emoji}, limit=1
            )
        ],
    )


def pin_step(message_id: int, channel_id: int, *, name: str) -> Step:
    """Pin a message: the call, the check that it is pinned in its channel, one pin."""
    return Step(
        calls=[call("slack_pin_message", message_id=message_id)],
        checks=[
            RowExists(
                name=name,
                table="slack_pin",
                where={"message_id": message_id, "channel_id": channel_id},
            )
        ],
        allowed=[Allow("slack_pin", where={"message_id": message_id}, limit=1)],
    )
