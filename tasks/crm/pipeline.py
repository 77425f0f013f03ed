"""CRM templates about the pipeline: move, win and lose deals, clean up overdue
close dates, and hand a rep's accounts to a colleague (distractors included)."""

from __future__ import annotations

import datetime as dt
import random

from sqlalchemy.orm import Session

from officegym.apps.crm.models import OPEN_STAGES, STAGE_PROBABILITY, STAGES
from officegym.tasks.base import Level, Spec, template
from officegym.tasks.checks import FieldEquals, Predicate
from officegym.tasks.common import call, pick
from officegym.tasks.crm.common import crm_index
from officegym.tasks.crm.steps import activity_step, reassign_step, stage_step, update_step
from officegym.tasks.statements import Says
from officegym.tasks.steps import Step

SIGNED = ["Contract signed", "Signed order form received", "Deal signed"]
LOSSES = {
    "Competitor": "they signed with a competitor",
    "No Budget": "their budget was cut for the year",
    "Price": "our price was too high for them",
    "Timing": "they postponed the project to next year",
    "Product Fit": "the product does not fit what they need",
}


def _rep_deal(w: Session, rng: random.Random, stages: tuple[str, ...] = OPEN_STAGES):
    idx = crm_index(w)
    deals = [o for o in idx.open_opps() if idx.roles.get(o.owner_id) == "rep" and o.stage in stages]
    opp = pick(rng, deals, "open deals of reps")
    return idx, opp, idx.people[opp.owner_id]


@template("crm.advance-stage", difficulty="easy", knobs={"rows": (1, 2, 3)})
def advance_stage(w: Session, rng: random.Random, level: Level) -> Spec:
    """Move a deal to the next stage of the pipeline (harder levels: two or three deals)."""
    idx, opp, me = _rep_deal(w, rng, OPEN_STAGES[:-1])
    deals = [opp, *_more(rng, idx, opp, level.rows - 1, OPEN_STAGES[:-1])]
    nxt = {o.id: STAGES[STAGES.index(o.stage) + 1] for o in deals}
    if len(deals) == 1:
        goal = f'The opportunity "{opp.name}" has moved on: set its stage to {nxt[opp.id]}.'
    else:
        moves = "; ".join(f'"{o.name}" to {nxt[o.id]}' for o in deals)
        goal = f"These opportunities have moved on. Set the stage of {moves}."
    return Spec(
        goal=goal,
        persona=me.handle,
        steps=[_advance(o, nxt[o.id], named=len(deals) > 1) for o in deals],
    )


def _more(rng: random.Random, idx, opp, n: int, stages: tuple[str, ...]) -> list:
    """`n` more open deals of `opp`'s owner in `stages` (a level's extra rows)."""
    if n <= 0:
        return []
    others = [o for o in idx.open_opps(opp.owner_id) if o.id != opp.id and o.stage in stages]
    if len(others) < n:
        raise LookupError(f"the rep needs {n + 1} open deals for this level")
    return rng.sample(others, n)


def _advance(opp, stage: str, *, named: bool) -> Step:
    """Look a deal up and move it to `stage`, its probability following."""
    suffix = f" ({opp.name})" if named else ""
    probability = FieldEquals(
        name=f"probability follows the stage{suffix}",
        table="crm_opportunity",
        row_id=opp.id,
        field="probability",
        value=STAGE_PROBABILITY[stage],
    )
    find = [call("crm_get_opportunity", opportunity=opp.name)]
    return stage_step(opp.id, stage, name=f"stage is {stage}{suffix}", find=find) + Step(
        checks=[probability]
    )


def _closed_today(opp_id: int):
    def check(g) -> tuple[bool, str]:
        row = g.rows("crm_opportunity", {"id": opp_id})[0]
        ok = row["closed_at"] is not None and row["close_date"] == row["closed_at"].date()
        return ok, f"close date {row['close_date']}, closed at {row['closed_at']}"

    return check


@template("crm.close-won", difficulty="medium")
def close_won(w: Session, rng: random.Random) -> Spec:
    """Mark a deal won and log the signing call on it."""
    _idx, opp, me = _rep_deal(w, rng)
    subject = rng.choice(SIGNED)
    find = [call("crm_get_opportunity", opportunity=opp.name)]
    return Spec(
        goal=f'Good news: the customer signed "{opp.name}". Mark the opportunity as won and '
        f'log a call on it with the subject "{subject}".',
        persona=me.handle,
        steps=[
            stage_step(opp.id, "Closed Won", name="stage is Closed Won", find=find),
            Step(
                checks=[
                    Predicate(
                        name="close date is the closing day", fn=_closed_today(opp.id), weight=0.5
                    )
                ]
            ),
            activity_step(
                "opportunity",
                opp.id,
                me.id,
                "call",
                subject,
                Says(exactly=subject),
                name="call logged",
            ),
        ],
    )


@template("crm.close-lost", difficulty="medium")
def close_lost(w: Session, rng: random.Random) -> Spec:
    """Close a deal as lost with the loss reason the story implies."""
    _idx, opp, me = _rep_deal(w, rng)
    reason, story = rng.choice(sorted(LOSSES.items()))
    find = [call("crm_get_opportunity", opportunity=opp.name)]
    lost = stage_step(
        opp.id, "Closed Lost", name="stage is Closed Lost", loss_reason=reason, find=find
    )
    why = FieldEquals(
        name=f"loss reason {reason}",
        table="crm_opportunity",
        row_id=opp.id,
        field="loss_reason",
        value=reason,
    )
    return Spec(
        goal=f'We lost "{opp.name}": {story}. Close the opportunity as lost with the matching '
        f"loss reason.",
        persona=me.handle,
        steps=[lost + Step(checks=[why])],
    )


@template(
    "crm.push-overdue-deals",
    difficulty="hard",
    knobs={"overdue": ((1, 1), (2, 3), (2, 5))},  # how many of the rep's deals are overdue
)
def push_overdue_deals(w: Session, rng: random.Random, level: Level) -> Spec:
    """Give every overdue open deal of yours a new close date (closed and future ones stay)."""
    idx = crm_index(w)
    low, high = level.overdue
    reps = [p for p in idx.with_role("rep", idx.sales) if low <= len(_overdue(idx, p.id)) <= high]
    if not reps:  # a small CRM (the startup's): a rep with one overdue deal will do
        reps = [p for p in idx.with_role("rep", idx.sales) if len(_overdue(idx, p.id)) == 1]
    me = pick(rng, reps, "reps with overdue deals")
    targets = _overdue(idx, me.id)
    new_date = idx.today + dt.timedelta(days=rng.randint(10, 90))
    search = call(
        "crm_search_opportunities",
        owner=me.handle,
        open_only=True,
        close_before=(idx.today - dt.timedelta(days=1)).isoformat(),
        limit=50,
    )
    return Spec(
        goal="Some of your open opportunities have a close date that has already passed. "
        f"Move the close date of each of them to {new_date:%B %-d, %Y}. Do not touch closed "
        "opportunities or open ones whose close date is still ahead.",
        persona=me.handle,
        steps=[
            Step(calls=[search]),
            *[
                update_step("opportunity", o.id, {"close_date": new_date}, name=f"{o.name} moved")
                for o in targets
            ],
        ],
    )


def _overdue(idx, owner_id: int) -> list:
    return [o for o in idx.open_opps(owner_id) if o.close_date < idx.today]


@template("crm.reassign-territory", difficulty="hard")
def reassign_territory(w: Session, rng: random.Random) -> Spec:
    """As sales manager, hand one rep's accounts in one industry to another rep."""
    idx = crm_index(w)
    head = pick(rng, idx.with_role("manager", idx.sales), "sales managers")
    reps = idx.with_role("rep", idx.sales)
    options = _territories(idx, reps)
    src, industry, targets = pick(rng, options, "rep/industry pairs")
    dst = rng.choice([r for r in reps if r.id != src.id])
    return Spec(
        goal=f"{src.name} is handing over the {industry} territory: reassign all of "
        f"{src.name}'s accounts in the {industry} industry to {dst.name}. Their other "
        "accounts stay with them.",
        persona=head.handle,
        steps=[
            Step(
                calls=[call("crm_search_accounts", owner=src.handle, industry=industry, limit=50)]
            ),
            *[
                reassign_step("account", a.id, dst, name=f"{a.name} now owned by {dst.name}")
                for a in targets
            ],
        ],
    )


def _territories(idx, reps: list) -> list[tuple]:
    """(rep, industry, accounts) where the rep owns 2-5 accounts of that industry and others."""
    options = []
    for rep in reps:
        by_industry: dict[str, list] = {}
        for a in idx.accounts:
            if a.owner_id == rep.id and a.industry:
                by_industry.setdefault(a.industry, []).append(a)
        if len(by_industry) > 1:
            options += [
                (rep, ind, accts)
                for ind, accts in sorted(by_industry.items())
                if 2 <= len(accts) <= 5
            ]
    return options
