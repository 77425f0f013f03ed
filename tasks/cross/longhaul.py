"""Shared parts of the long-horizon templates (`longhaul_*.py`): many sub-goals per task,
each graded by its own check, so an agent that finishes 6 of 8 owners' updates earns
about 6/8 of that part instead of nothing.

Every sub-goal is a check of weight 1 (the reward is the weighted share of passing
checks); a DM to each of several people is allowed in its own conversation, told apart
by the DM's member key, so one person's DM never stands in for another's.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from typing import Any

from sqlalchemy.orm import Session

from officegym.apps.org.models import Person
from officegym.apps.slack import service as chat
from officegym.apps.slack.channels import dm_key
from officegym.tasks.checks import Allow
from officegym.tasks.slack.common import allow_post, new_channel

__all__ = ["allow_dm_to", "day", "listing", "person_row", "short_day"]


def allow_dm_to(w: Session, me: Any, other: Any, *, limit: int = 1) -> list[Allow]:
    """Allow `limit` direct messages from `me` to `other`, in their DM if it exists, else in
    the DM the episode opens between exactly these two (named by its member key, so many
    new DMs in one task each have their own allowance)."""
    existing = chat.find_dm(w, person_row(w, me), [person_row(w, other)])
    if existing is not None:
        return allow_post(existing.id, me.id, limit=limit)
    key = dm_key([me.id, other.id])
    dm = new_channel(kind="dm", dm_key=key)
    return [
        Allow("slack_channel", where={"kind": "dm", "dm_key": key}, limit=1),
        Allow("slack_membership", where={"channel_id": dm}, limit=2),
        *allow_post(dm, me.id, limit=limit),
    ]


def person_row(w: Session, p: Any) -> Any:
    """The ORM person of a person row or snapshot (services want the ORM object)."""
    return p if isinstance(p, Person) else w.get_one(Person, p.id)


def day(d: dt.date) -> str:
    """A date as goals write it: March 31, 2026."""
    return f"{d:%B %-d, %Y}"


def short_day(d: dt.date) -> str:
    """A date as messages write it, without the year (a year is no fact worth a mutant)."""
    return f"{d:%B %-d}"


def listing(names: Iterable[str]) -> str:
    """Names joined for a sentence: "A, B and C"."""
    items: Sequence[str] = list(names)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]
