"""CRM templates that need an answer read from reports and records."""

from __future__ import annotations

import random

from sqlalchemy.orm import Session

from officegym.apps.crm.models import OPEN_STAGES
from officegym.tasks.base import Spec, template
from officegym.tasks.crm.common import crm_index
from officegym.tasks.facts import integer, money
from officegym.tasks.slack.common import call, pick


@template("crm.pipeline-amount", difficulty="medium")
def pipeline_amount(w: Session, rng: random.Random) -> Spec:
    """Answer the total amount of one rep's open deals in one stage."""
    idx = crm_index(w)
    me = pick(rng, idx.with_role("rep", idx.sales), "sales reps")
    owner = rng.choice(idx.with_role("rep", idx.sales))
    totals = {
        st: sum(o.amount or 0 for o in idx.open_opps(owner.id) if o.stage == st)
        for st in OPEN_STAGES
    }
    stage = pick(rng, [st for st, n in totals.items() if n], "stages with deals")
    answer = totals[stage]
    who = "your" if owner.id == me.id else f"{owner.name}'s"
    return Spec(
        goal=f"What is the total amount of {who} open opportunities in the {stage} stage? "
        "Answer with the amount in dollars.",
        persona=me.handle,
        checks=[],
        allowed=[],
        solution=[call("crm_pipeline_report", group_by="stage", owner=owner.handle)],
        answer=money(answer, label=f"the {stage} total, ${answer:,}"),
    )


@template("crm.count-open-cases", difficulty="easy")
def count_open_cases(w: Session, rng: random.Random) -> Spec:
    """Answer how many open cases an account has."""
    idx = crm_index(w)
    counts: dict[int, int] = {}
    for c in idx.cases:
        if c.account_id is not None and c.status != "Closed":
            counts[c.account_id] = counts.get(c.account_id, 0) + 1
    account = idx.account(pick(rng, sorted(counts), "accounts with open cases"))
    n = counts[account.id]
    me = rng.choice([p for p in idx.with_role("rep") if p.team_slug == idx.support])
    return Spec(
        goal=f"How many open (not closed) support cases does {account.name} have? Answer with "
        "the number only.",
        persona=me.handle,
        checks=[],
        allowed=[],
        solution=[call("crm_search_cases", account=account.id, open_only=True, limit=50)],
        answer=integer(n, alone=True, ignoring=(account.name,)),
    )
