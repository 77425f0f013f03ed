"""CRM templates that need an answer read from reports and records."""

from __future__ import annotations

import functools
import random
from collections import Counter
from typing import Any

from sqlalchemy import Engine
from sqlalchemy.orm import Session

from officegym.apps.crm.models import OPEN_STAGES
from officegym.tasks.base import Spec, template
from officegym.tasks.common import call, pick
from officegym.tasks.crm.common import crm_index
from officegym.tasks.facts import integer, money
from officegym.tasks.priors import spread
from officegym.tasks.steps import Step


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
        steps=[Step(calls=[call("crm_pipeline_report", group_by="stage", owner=owner.handle)])],
        answer=money(answer, label=f"the {stage} total, ${answer:,}"),
    )


# The filters a count may combine (`crm_search_cases` takes each), over the open cases,
# the closed ones or (without a status) every case.
_FILTERS = ((), ("account",), ("owner",), ("status",), ("priority",), ("owner", "priority"),
            ("owner", "status"), ("status", "priority"), ("account", "priority"), ("urgent",),
            ("owner", "urgent"), ("status", "urgent"), ("account", "urgent"))  # fmt: skip
URGENT = ("High", "Critical")  # "urgent": either priority, two searches added up
_SCOPES = {"open": "open (not closed) support cases", "closed": "closed support cases",
           "all": "support cases, closed or not,"}  # fmt: skip


_KEY = {
    "account": lambda c: c.account_id,
    "owner": lambda c: c.owner_id,
    "status": lambda c: c.status,
    "priority": lambda c: c.priority,
    "urgent": lambda c: True if c.priority in URGENT else None,
}
_SCOPE_HOLDS = {
    "open": lambda status: status != "Closed",
    "closed": lambda status: status == "Closed",
    "all": lambda status: True,
}


def _case_counts(w: Session) -> list[tuple[tuple[tuple[str, Any], ...], str, int]]:
    """Every case count the template may ask for, as (filters, scope, count): the open
    cases (the closed ones, or all cases) of an account, a support rep, a status or a
    priority, or two of these. Read once per world."""
    return _counts_of(w.get_bind())


@functools.lru_cache(maxsize=8)
def _counts_of(engine: Engine) -> list[tuple[tuple[tuple[str, Any], ...], str, int]]:
    with Session(engine) as w:
        cases = crm_index(w).cases
    out: list[tuple[tuple[tuple[str, Any], ...], str, int]] = []
    for keys in _FILTERS:
        for scope in ("open",) if "status" in keys else _SCOPES:
            chosen = [c for c in cases if _SCOPE_HOLDS[scope](c.status)]
            groups = Counter(tuple(_KEY[k](c) for k in keys) for c in chosen)
            for values, n in sorted(groups.items(), key=str):
                if None not in values:
                    out.append((tuple(zip(keys, values, strict=True)), scope, n))
    return out


def _question(idx: Any, me: Any, by: dict[str, Any], scope: str) -> tuple[str, list[dict], str]:
    """The question, the searches' arguments and the subject's name of one count."""
    args: dict[str, Any] = {"open_only": scope == "open", "limit": 50}
    if scope == "closed":
        args["status"] = "Closed"
    subject, whose = "", "are there"
    if "account" in by:
        subject = idx.account(by["account"]).name
        whose, args["account"] = f"does {subject} have", by["account"]
    if "owner" in by:
        subject, args["owner"] = idx.people[by["owner"]].name, idx.people[by["owner"]].handle
        whose = "do you own" if by["owner"] == me.id else f"does {subject} own"
    quals = ""
    if "status" in by:
        quals, args["status"] = f" with the status {by['status']}", by["status"]
    if "priority" in by:
        quals, args["priority"] = f"{quals} at {by['priority']} priority", by["priority"]
    searches = [args]
    if "urgent" in by:
        quals = f"{quals} at {' or '.join(URGENT)} priority"
        searches = [{**args, "priority": p} for p in URGENT]
    return f"How many {_SCOPES[scope]} {whose}{quals}?", searches, subject


@template("crm.count-open-cases", difficulty="easy")
def count_open_cases(w: Session, rng: random.Random) -> Spec:
    """Answer how many open cases (or all cases) an account, a support rep, a status or a
    priority have, or two of these (chosen so the counts spread: most accounts have one)."""
    idx = crm_index(w)
    me = rng.choice([p for p in idx.with_role("rep") if p.team_slug == idx.support])
    by, scope, n = spread(rng, _case_counts(w), lambda c: c[2], "cases")
    question, searches, subject = _question(idx, me, dict(by), scope)
    return Spec(
        goal=f"{question} Answer with the number only.",
        persona=me.handle,
        steps=[Step(calls=[call("crm_search_cases", **arguments) for arguments in searches])],
        answer=integer(n, alone=True, ignoring=(subject,) if subject else ()),
    )
