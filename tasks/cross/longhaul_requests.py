"""Long-horizon templates over this morning's requests in chat (see `cross/common.py`):
work through a whole backlog — every stage change and question addressed to you (and a
colleague's questions), every escalation your absent agents were asked for, every lead
tip from some events — each carried out in the CRM and confirmed in its own thread.
Each request is its own sub-goals (the CRM change, the reply)."""

from __future__ import annotations

import itertools
import random
from typing import Any

from sqlalchemy.orm import Session

from officegym.tasks.base import Spec, template
from officegym.tasks.checks import Same
from officegym.tasks.common import call, pick
from officegym.tasks.crm.common import crm_index
from officegym.tasks.crm.steps import stage_step
from officegym.tasks.cross.common import Request, reply_to, requests_of
from officegym.tasks.cross.longhaul import listing
from officegym.tasks.cross.requests import (
    answer_of,
    escalation_steps,
    lead_steps,
    open_requests,
    stage_confirmed,
)
from officegym.tasks.steps import Step

APPS = ["crm", "slack"]


def _stage_requests(w: Session, owner_id: int) -> list[Request]:
    """The open stage requests to `owner_id` about their own deals."""
    return [r for r in open_requests(w, "stage", owner_id) if r.record.owner_id == owner_id]


@template("cross.sales-inbox", difficulty="hard", apps=APPS)
def sales_inbox(w: Session, rng: random.Random) -> Spec:
    """Carry out the stage changes asked of you in #sales; answer your and a colleague's questions.

    Each change and each thread reply is a sub-goal."""
    idx = crm_index(w)
    reps = idx.with_role("rep", idx.sales)
    pairs = [
        (me, other)
        for me, other in itertools.permutations(reps, 2)
        if 20 <= 1 + 2 * _inbox_size(w, me.id, other.id) <= 50
        and _stage_requests(w, me.id)
        and open_requests(w, "question", other.id)
    ]
    me, other = pick(rng, pairs, "reps with a full inbox")
    stages = _stage_requests(w, me.id)
    questions = sorted(
        open_requests(w, "question", me.id) + open_requests(w, "question", other.id),
        key=lambda r: r.message_id,
    )
    steps = [Step(calls=[call("slack_search_messages", query=f"@{me.handle}", channel=idx.sales)])]
    steps += [step for r in stages for step in _stage_steps(r, me)]
    steps.append(
        Step(calls=[call("slack_search_messages", query=f"@{other.handle}", channel=idx.sales)])
    )
    for r in questions:
        field = r.fields["field"]
        says, said = answer_of(r.record, field)
        steps += [
            Step(calls=[call("crm_get_opportunity", opportunity=r.record.id)]),
            reply_to(
                r,
                me,
                f"The {field} of {r.record.name} is {said}.",
                says,
                name=f"answered the {field} of {r.record.name}",
            ),
        ]
    first = other.name.split()[0]
    return Spec(
        goal=f"Clear your part of #{idx.sales} this morning. Colleagues asked you "
        f"(@{me.handle}) to "
        "move some of your deals to a later stage: make each change they asked for in the "
        "CRM and confirm in its thread, naming the new stage. Then answer, each in its "
        f"thread, every quick question about a deal addressed to you or to {other.name} "
        f"(@{other.handle}, out today), looking the answers up in the CRM. Leave "
        f"{first}'s stage requests alone.",
        persona=me.handle,
        steps=steps,
    )


def _inbox_size(w: Session, me_id: int, other_id: int) -> int:
    return (
        len(_stage_requests(w, me_id))
        + len(open_requests(w, "question", me_id))
        + len(open_requests(w, "question", other_id))
    )


def _stage_steps(r: Request, me: Any) -> list[Step]:
    """Make the stage change a request asks for, then confirm it in its thread."""
    opp, stage = r.record, r.fields["stage"]
    return [
        stage_step(opp.id, stage, name=f"{opp.name} is in {stage}"),
        reply_to(
            r,
            me,
            f"Done, {opp.name} is now in {stage}.",
            stage_confirmed(opp, stage),
            name=f"confirmed {opp.name} in its thread",
        ),
    ]


@template("cross.escalation-backlog", difficulty="hard", apps=APPS)
def escalation_backlog(w: Session, rng: random.Random) -> Spec:
    """Escalate every case you asked absent agents to escalate; confirm each in its thread."""
    idx = crm_index(w)
    by_agent: dict[int, list[Request]] = {}
    for r in open_requests(w, "escalation"):
        by_agent.setdefault(r.owner.id, []).append(r)
    agents = sorted(by_agent)
    options = [
        group
        for n in (2, 3)
        for group in itertools.combinations(agents, n)
        if 10 <= sum(len(by_agent[a]) for a in group) <= 24
    ]
    if not options:  # a big support team: each agent was asked for fewer escalations
        options = [
            group
            for n in (4, 5)
            for group in itertools.combinations(agents, n)
            if 10 <= sum(len(by_agent[a]) for a in group) <= 24
        ]
    group = pick(rng, options, "groups of agents with escalation requests")
    mine = sorted((r for a in group for r in by_agent[a]), key=lambda r: r.message_id)
    me = idx.people[mine[0].asker_id]
    steps = [
        Step(
            calls=[call("slack_search_messages", query="needs an escalation", channel=idx.support)]
        )
    ]
    for r in mine:
        n = r.record.number
        names = (f"case {n} escalated", f"reason of {n} logged", f"confirmed {n} in its thread")
        steps += escalation_steps(idx, r, me, names=names)
    names = listing(f"{idx.people[a].name} (@{idx.people[a].handle})" for a in group)
    return Spec(
        goal=f"This morning you asked {names} in #{idx.support} to escalate some cases, "
        "but they are all out today. Do it for them: escalate every case you asked them "
        "about, with the reason your request gave, and confirm in each request's thread, "
        "naming the case. Requests to other agents are theirs to handle.",
        persona=me.handle,
        steps=steps,
    )


@template("cross.lead-tips-backlog", difficulty="hard", apps=APPS)
def lead_tips_backlog(w: Session, rng: random.Random) -> Spec:
    """Turn the #sales lead tips from some events into CRM leads; confirm each in its thread."""
    idx = crm_index(w)
    tips = requests_of(w, "lead")
    events = sorted({t.fields["event"] for t in tips})
    options = [
        group
        for n in (2, 3)
        for group in itertools.combinations(events, n)
        if 10 <= sum(t.fields["event"] in group for t in tips) <= 24
    ]
    group = pick(rng, options, "sets of events with lead tips")
    mine = [t for t in tips if t.fields["event"] in group]
    me = rng.choice(idx.with_role("rep", idx.sales))
    steps = [Step(calls=[call("slack_search_messages", query="Met", channel=idx.sales)])]
    for t in mine:
        f = t.fields
        steps += lead_steps(
            t,
            me,
            {"owner_id": me.id, "email": Same(f["email"])},
            names=(f"lead {f['first']} {f['last']} created", f"confirmed the {f['company']} tip"),
        )
    return Spec(
        goal=f"Colleagues posted lead tips in #{idx.sales} this morning. Add every person met at "
        f"the {listing(group)} to the CRM as a lead (with their name, company, title and "
        "email, lead source Trade Show), and reply in each of those tips' threads that the "
        "lead is in the CRM. Tips from other events are not yours.",
        persona=me.handle,
        steps=steps,
    )
