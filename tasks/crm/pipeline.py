"""CRM templates about the pipeline: move, win and lose deals, clean up overdue
close dates, and hand a rep's accounts to a colleague (distractors included)."""

from __future__ import annotations

import datetime as dt
import random

from sqlalchemy.orm import Session

from officegym.apps.crm.models import OPEN_STAGES, STAGE_PROBABILITY, STAGES
from officegym.tasks.base import Level, Spec, template
from officegym.tasks.checks import Allow, FieldEquals, Predicate, RowExists
from officegym.tasks.common import call, pick
from officegym.tasks.crm.common import allow_update, crm_index
from officegym.tasks.statements import Says

CLOSE_FIELDS = ["stage", "probability", "close_date", "closed_at", "loss_reason"]
MOVE_FIELDS = ["stage", "probability"]  # what a move between open stages changes
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
        checks=[c for o in deals for c in _stage_checks(o, nxt[o.id], named=len(deals) > 1)],
        allowed=[a for o in deals for a in allow_update("opportunity", o.id, MOVE_FIELDS)],
        solution=[
            step
            for o in deals
            for step in (
                call("crm_get_opportunity", opportunity=o.name),
                call("crm_change_opportunity_stage", opportunity=o.id, stage=nxt[o.id]),
            )
        ],
    )


def _more(rng: random.Random, idx, opp, n: int, stages: tuple[str, ...]) -> list:
    """`n` more open deals of `opp`'s owner in `stages` (a level's extra rows)."""
    if n <= 0:
        return []
    others = [o for o in idx.open_opps(opp.owner_id) if o.id != opp.id and o.stage in stages]
    if len(others) < n:
        raise LookupError(f"the rep needs {n + 1} open deals for this level")
    return rng.sample(others, n)


def _stage_checks(opp, stage: str, *, named: bool) -> list[FieldEquals]:
    suffix = f" ({opp.name})" if named else ""
    return [
        FieldEquals(
            name=f"stage is {stage}{suffix}",
            table="crm_opportunity",
            row_id=opp.id,
            field="stage",
            value=stage,
        ),
        FieldEquals(
            name=f"probability follows the stage{suffix}",
            table="crm_opportunity",
            row_id=opp.id,
            field="probability",
            value=STAGE_PROBABILITY[stage],
        ),
    ]


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
    return Spec(
        goal=f'Good news: the customer signed "{opp.name}". Mark the opportunity as won and '
        f'log a call on it with the subject "{subject}".',
        persona=me.handle,
        checks=[
            FieldEquals(
                name="stage is Closed Won",
                table="crm_opportunity",
                row_id=opp.id,
                field="stage",
                value="Closed Won",
            ),
            Predicate(name="close date is the closing day", fn=_closed_today(opp.id), weight=0.5),
            RowExists(
                name="call logged",
                table="crm_activity",
                new=True,
                where={"record_type": "opportunity", "record_id": opp.id, "kind": "call"},
                says={"subject": Says(exactly=subject)},
            ),
        ],
        allowed=[
            *allow_update("opportunity", opp.id, CLOSE_FIELDS),
            Allow(
                "crm_activity",
                where={"record_type": "opportunity", "record_id": opp.id, "owner_id": me.id},
                limit=1,
            ),
        ],
        solution=[
            call("crm_get_opportunity", opportunity=opp.name),
            call("crm_change_opportunity_stage", opportunity=opp.id, stage="Closed Won"),
            call(
                "crm_log_activity",
                record_type="opportunity",
                record_id=opp.id,
                kind="call",
                subject=subject,
            ),
        ],
    )


@template("crm.close-lost", difficulty="medium")
def close_lost(w: Session, rng: random.Random) -> Spec:
    """Close a deal as lost with the loss reason the story implies."""
    _idx, opp, me = _rep_deal(w, rng)
    reason, story = rng.choice(sorted(LOSSES.items()))
    return Spec(
        goal=f'We lost "{opp.name}": {story}. Close the opportunity as lost with the matching '
        f"loss reason.",
        persona=me.handle,
        checks=[
            FieldEquals(
                name="stage is Closed Lost",
                table="crm_opportunity",
                row_id=opp.id,
                field="stage",
                value="Closed Lost",
            ),
            FieldEquals(
                name=f"loss reason {reason}",
                table="crm_opportunity",
                row_id=opp.id,
                field="loss_reason",
                value=reason,
            ),
        ],
        allowed=allow_update("opportunity", opp.id, CLOSE_FIELDS),
        solution=[
            call("crm_get_opportunity", opportunity=opp.name),
            call(
                "crm_change_opportunity_stage",
                opportunity=opp.id,
                stage="Closed Lost",
                loss_reason=reason,
            ),
        ],
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
    return Spec(
        goal="Some of your open opportunities have a close date that has already passed. "
        f"Move the close date of each of them to {new_date:%B %-d, %Y}. Do not touch closed "
        "opportunities or open ones whose close date is still ahead.",
        persona=me.handle,
        checks=[
            FieldEquals(
                name=f"{o.name} moved",
                table="crm_opportunity",
                row_id=o.id,
                field="close_date",
                value=new_date,
            )
            for o in targets
        ],
        allowed=[a for o in targets for a in allow_update("opportunity", o.id, ["close_date"])],
        solution=[
            call(
                "crm_search_opportunities",
                owner=me.handle,
                open_only=True,
                close_before=(idx.today - dt.timedelta(days=1)).isoformat(),
                limit=50,
            ),
            *[
                call("crm_update_opportunity", opportunity=o.id, close_date=new_date.isoformat())
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
        checks=[
            FieldEquals(
                name=f"{a.name} now owned by {dst.name}",
                table="crm_account",
                row_id=a.id,
                field="owner_id",
                value=dst.id,
            )
            for a in targets
        ],
        allowed=[a for t in targets for a in allow_update("account", t.id, ["owner_id"])],
        solution=[
            call("crm_search_accounts", owner=src.handle, industry=industry, limit=50),
            *[
                call(
                    "crm_reassign_owner",
                    record_type="account",
                    record_id=a.id,
                    new_owner=dst.handle,
                )
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
