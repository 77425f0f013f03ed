"""Cross-app templates built on requests posted in the chat this morning: each must be
found in the chat, carried out (or answered) from the CRM, and confirmed in its thread."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from sqlalchemy.orm import Session

from officegym.apps.crm.models import STAGES
from officegym.seed_data.crm_text import NEXT_STEPS
from officegym.tasks.base import Spec, template
from officegym.tasks.checks import Same
from officegym.tasks.common import call, pick
from officegym.tasks.crm.common import crm_index
from officegym.tasks.crm.steps import create_step, escalate_step, stage_step
from officegym.tasks.crm.support import reason_logged
from officegym.tasks.cross.common import Request, case_fact, reply_to, requests_of
from officegym.tasks.facts import choice
from officegym.tasks.statements import Says
from officegym.tasks.steps import Step
from officegym.tools import ToolCall

APPS = ["crm", "slack"]


def lead_where(f: dict[str, str], owner_id: int) -> dict[str, Any]:
    """The lead a tip's fields make, owned by `owner_id`."""
    return {
        "email": Same(f["email"]),
        "company": Same(f["company"]),
        "first_name": Same(f["first"]),
        "last_name": Same(f["last"]),
        "title": Same(f["title"]),
        "source": "Trade Show",
        "owner_id": owner_id,
    }


def open_requests(w: Session, kind: str, owner_id: int | None = None) -> list[Request]:
    """The requests of `kind` (stage, question, escalation) still to carry out: addressed
    to someone (to `owner_id`, if given) about a record that still wants it."""
    wants = _STILL_WANTED[kind]
    return [
        r
        for r in requests_of(w, kind)
        if r.owner and r.record and owner_id in (None, r.owner.id) and wants(r)
    ]


def _behind_the_stage(r: Request) -> bool:
    """The deal is at an earlier stage than the one asked for."""
    return STAGES.index(r.record.stage) < STAGES.index(r.fields["stage"])


def _has_the_answer(r: Request) -> bool:
    """The deal's field asked about holds a value to give."""
    return getattr(r.record, r.fields["field"].replace(" ", "_")) not in (None, "")


def _still_open(r: Request) -> bool:
    """The case is neither escalated nor closed yet."""
    return r.record.status in ("New", "Working")


_STILL_WANTED = {"stage": _behind_the_stage, "question": _has_the_answer, "escalation": _still_open}


def stage_confirmed(opp: Any, stage: str) -> Says:
    """What the confirmation that `opp` is now at `stage` must say: that stage and no
    other (the deal's own name does not count)."""
    fact = choice(stage, STAGES, ignoring=(opp.name,))
    return Says(facts=[fact], ignoring=[opp.name], act="confirm")


def escalation_steps(
    idx: Any,
    req: Request,
    me: Any,
    *,
    names: tuple[str, str, str],
    find: Sequence[ToolCall] = (),
) -> list[Step]:
    """The work on an escalation request: escalate its case with the reason it gives, as
    `me`, then confirm in its thread, naming the case (checks named `names`: escalated,
    reason logged, confirmed)."""
    case, reason = req.record, req.fields["reason"]
    return [
        escalate_step(case, reason, me.id, reason_logged(reason), names=names[:2], find=find),
        reply_to(
            req,
            me,
            f"Case {case.number} is escalated.",
            Says(facts=[case_fact(idx, case.number)], act="confirm"),
            name=names[2],
        ),
    ]


def lead_steps(
    tip: Request,
    me: Any,
    allow: dict[str, Any],
    *,
    names: tuple[str, str],
    find: Sequence[ToolCall] = (),
) -> list[Step]:
    """The work on a lead tip: create the lead `me` owns (one new lead matching `allow`),
    then say so in its thread (checks named `names`)."""
    f = tip.fields
    made = call(
        "crm_create_lead",
        last_name=f["last"],
        first_name=f["first"],
        company=f["company"],
        title=f["title"],
        email=f["email"],
        source="Trade Show",
    )
    return [
        create_step("lead", made, lead_where(f, me.id), name=names[0], allow=allow, find=find),
        reply_to(
            tip,
            me,
            f"Added {f['first']} {f['last']} as a lead in the CRM.",
            Says(all_of=[["lead", "CRM", "added", "created"]], act="confirm"),
            name=names[1],
        ),
    ]


@template("cross.stage-request", difficulty="medium", apps=APPS)
def stage_request(w: Session, rng: random.Random) -> Spec:
    """Carry out a stage change a colleague asked for in #sales and confirm in the thread."""
    idx = crm_index(w)
    req = pick(rng, open_requests(w, "stage"), "stage requests")
    opp, me, stage = req.record, req.owner, req.fields["stage"]
    asker = idx.people[req.asker_id]
    return Spec(
        goal=f"{asker.name} asked you in #{req.channel} this morning to update the "
        f'"{opp.name}" deal. Do what they asked in the CRM, then reply in their thread to '
        "confirm, naming the new stage.",
        persona=me.handle,
        steps=[
            stage_step(
                opp.id,
                stage,
                name=f"stage is {stage}",
                find=[
                    call(
                        "slack_search_messages",
                        query=f"please move {opp.name}",
                        channel=req.channel,
                    ),
                    call("crm_get_opportunity", opportunity=opp.name),
                ],
            ),
            reply_to(
                req,
                me,
                f"Done: {opp.name} is now at {stage} in the CRM.",
                stage_confirmed(opp, stage),
                name="confirmed in the thread, naming the stage",
            ),
        ],
    )


def answer_of(opp, field: str) -> tuple[Says, str]:
    """What a reply must say to answer a deal's field (that value and no rival one), and
    the reference wording."""
    if field == "close date":
        says = Says(date=opp.close_date, hedges=False, ignoring=[opp.name], act="report")
        return says, opp.close_date.isoformat()
    if field == "amount":
        says = Says(amount=opp.amount, hedges=False, ignoring=[opp.name], act="report")
        return says, f"${opp.amount:,}"
    step = choice(opp.next_step, NEXT_STEPS, ignoring=(opp.name,))
    says = Says(facts=[step], hedges=False, ignoring=[opp.name], act="report")
    return says, opp.next_step


@template("cross.answer-deal-question", difficulty="medium", apps=APPS)
def answer_deal_question(w: Session, rng: random.Random) -> Spec:
    """Answer a question about a deal (yours or an absent colleague's) in its thread."""
    idx = crm_index(w)
    req = pick(rng, open_requests(w, "question"), "deal questions")
    opp, owner, field = req.record, req.owner, req.fields["field"]
    me = rng.choice([p for p in idx.with_role("rep", idx.sales) if p.id != req.asker_id])
    says, said = answer_of(opp, field)
    asker = idx.people[req.asker_id].name
    if me.id == owner.id:
        ask = f'{asker} asked you a question in #{req.channel} about "{opp.name}".'
    else:
        ask = (
            f'{asker} asked {owner.name} a question in #{req.channel} about "{opp.name}"; '
            f"{owner.name.split()[0]} is out today, so answer it for them."
        )
    return Spec(
        goal=f"{ask} Look the answer up in the CRM and reply in the question's thread.",
        persona=me.handle,
        steps=[
            Step(
                calls=[
                    call("slack_search_messages", query="quick question", channel=req.channel),
                    call("crm_get_opportunity", opportunity=opp.name),
                ]
            ),
            reply_to(
                req,
                me,
                f"The {field} of {opp.name} is {said}.",
                says,
                name=f"replied with the {field}",
            ),
        ],
    )


@template("cross.lead-from-chat", difficulty="medium", apps=APPS)
def lead_from_chat(w: Session, rng: random.Random) -> Spec:
    """Turn a lead tip posted in #sales into a CRM lead and say so in the thread."""
    idx = crm_index(w)
    req = pick(rng, requests_of(w, "lead"), "lead tips")
    f = req.fields
    me = rng.choice(idx.with_role("rep", idx.sales))
    who = idx.people[req.asker_id].name
    return Spec(
        goal=f"{who} posted a lead tip in #{req.channel} about someone from {f['company']}. "
        "Add that person to the CRM as a lead (with their title and email, lead source Trade "
        "Show), then reply in the tip's thread that the lead is in the CRM.",
        persona=me.handle,
        steps=lead_steps(
            req,
            me,
            {"owner_id": me.id},
            names=("lead created from the tip", "said in the thread that the lead is in"),
            find=[call("slack_search_messages", query=f["company"], channel=req.channel)],
        ),
    )


@template("cross.escalation-request", difficulty="medium", apps=APPS)
def escalation_request(w: Session, rng: random.Random) -> Spec:
    """Escalate the case a support lead asked you about in chat, then confirm there."""
    idx = crm_index(w)
    req = pick(rng, open_requests(w, "escalation"), "escalation requests")
    return Spec(
        goal=f"{idx.people[req.asker_id].name} asked you in #{req.channel} to escalate case "
        f"{req.record.number}. Escalate it in the CRM with the reason they gave in their "
        "message, then confirm in their thread, naming the case.",
        persona=req.owner.handle,
        steps=escalation_steps(
            idx,
            req,
            req.owner,
            names=("case escalated", "reason logged", "confirmed in the thread, naming the case"),
            find=[call("slack_search_messages", query="needs an escalation", channel=req.channel)],
        ),
    )
