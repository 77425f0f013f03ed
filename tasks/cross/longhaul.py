"""Shared parts of the long-horizon templates (`longhaul_*.py`): many sub-goals per task,
each graded by its own check, so an agent that finishes 6 of 8 owners' updates earns
about 6/8 of that part instead of nothing.

Every sub-goal is a check of weight 1 (the reward is the weighted share of passing
checks); a DM to each of several people is allowed in its own conversation, told apart
by the DM's member key (`tasks/common.py: allow_dm_to`), so one person's DM never stands
in for another's.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence

__all__ = ["LONG_HORIZON", "day", "listing", "short_day"]

# The long-horizon templates, 20 to 50 reference calls each (tests and bench/ walk them).
LONG_HORIZON = (
    "cross.account-pipeline-sheet",
    "cross.case-handover",
    "cross.escalation-backlog",
    "cross.follow-up-sweep",
    "cross.lead-tips-backlog",
    "cross.onboard-cohort",
    "cross.quarter-end-review",
    "cross.renewal-campaign",
    "cross.sales-inbox",
    "cross.territory-handover",
    "cross.travel-desk",
    "cross.triage-support-inbox",
)


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
