"""Long-horizon follow-up sweep: check the activity history of each of your open deals,
log a follow-up task on every deal gone quiet, and tell your manager how many there were.
Each quiet deal is its own sub-goal (see `longhaul.py`)."""

from __future__ import annotations

import datetime as dt
import functools
import random
from typing import Any

from sqlalchemy import Engine, func, select
from sqlalchemy.orm import Session

from officegym.apps.crm.models import Activity
from officegym.tasks.base import Spec, template
from officegym.tasks.common import call, dm_step, pick
from officegym.tasks.crm.common import CrmIndex, crm_index
from officegym.tasks.crm.steps import activity_step
from officegym.tasks.cross.longhaul import day
from officegym.tasks.facts import integer
from officegym.tasks.statements import Says
from officegym.tasks.steps import Step

QUIET_DAYS = (14, 21, 30, 45, 60)
SUBJECTS = ("Follow up", "Re-engage the buyer", "Check in on next steps", "Revive the deal")


def last_activity(w: Session) -> dict[int, dt.date]:
    """Opportunity id -> the day of its latest activity."""
    return _last(w.get_bind())


@functools.lru_cache(maxsize=8)
def _last(engine: Engine) -> dict[int, dt.date]:
    with Session(engine) as w:
        rows = w.execute(
            select(Activity.record_id, func.max(Activity.created_at))
            .where(Activity.record_type == "opportunity")
            .group_by(Activity.record_id)
        ).all()
    return {rid: when.date() for rid, when in rows}


def _quiet(idx: CrmIndex, last: dict[int, dt.date], owner_id: int, since: dt.date) -> list[Any]:
    return [o for o in idx.open_opps(owner_id) if last.get(o.id, dt.date.min) < since]


@template("cross.follow-up-sweep", difficulty="hard", apps=["crm", "slack"])
def follow_up_sweep(w: Session, rng: random.Random) -> Spec:
    """Log a follow-up task on each of your deals gone quiet; DM your manager the count.

    A deal is quiet when no activity was logged on it on or after a date the goal gives."""
    idx = crm_index(w)
    last = last_activity(w)
    options = []
    for rep in idx.with_role("rep", idx.sales):
        for days in QUIET_DAYS:
            since = idx.today - dt.timedelta(days=days)
            n, quiet = len(idx.open_opps(rep.id)), len(_quiet(idx, last, rep.id, since))
            if rep.manager_id and quiet > 0 and 20 <= 2 + n + quiet <= 50:
                options.append((rep, since))
    me, since = pick(rng, options, "reps with quiet deals")
    quiet = _quiet(idx, last, me.id, since)
    due = idx.today + dt.timedelta(days=rng.randint(2, 14))
    subject = rng.choice(SUBJECTS)
    boss = idx.people[me.manager_id]
    steps = [
        Step(
            calls=[
                call("crm_search_opportunities", owner=me.handle, open_only=True, limit=100),
                *[
                    call("crm_list_activities", record_type="opportunity", record_id=o.id)
                    for o in idx.open_opps(me.id)
                ],
            ]
        ),
        *(_follow_up_step(me, o, subject, due) for o in quiet),
        dm_step(
            w,
            me,
            boss,
            f"Follow-up sweep done: {len(quiet)} of my open deals had gone quiet.",
            Says(facts=[integer(len(quiet))], act="report"),
            name=f"DM to {boss.name} with the count",
        ),
    ]
    return Spec(
        goal="Follow-up sweep: find every open opportunity of yours with no activity logged "
        f"on or after {day(since)} (including deals with no activity at all) and log a task "
        f'on each with the subject "{subject}", due {day(due)}. Deals with a more recent '
        "activity need nothing. Then send your manager a direct message saying how many "
        "deals needed a follow-up.",
        persona=me.handle,
        steps=steps,
    )


def _follow_up_step(me: Any, opp: Any, subject: str, due: dt.date) -> Step:
    """Log the follow-up task on a quiet deal: the call, the check of the open task due
    that day with that subject, one activity on the deal allowed."""
    return activity_step("opportunity", opp.id, me.id, "task", subject, Says(exactly=subject),
                         name=f"follow-up task on {opp.name}",
                         where={"status": "Open", "due_date": due}, due_date=due)  # fmt: skip
