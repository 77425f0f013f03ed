"""Cross-app templates that carry CRM facts to the right people: a deal's status to the
team channel, an escalation to the owner's manager, a rep's pipeline to their manager."""

from __future__ import annotations

import datetime as dt
import random

from sqlalchemy import select
from sqlalchemy.orm import Session

from officegym.apps.crm.models import STAGES
from officegym.apps.slack.models import Channel
from officegym.seed_data.crm_text import ESCALATION_REASONS
from officegym.tasks.base import Level, Spec, template
from officegym.tasks.common import call, dm_step, pick, post_step
from officegym.tasks.crm.common import contact_names, crm_index, only_open_deal
from officegym.tasks.crm.support import escalate_quoted
from officegym.tasks.cross.common import case_fact
from officegym.tasks.facts import choice
from officegym.tasks.mutants import Equivalent
from officegym.tasks.statements import Says
from officegym.tasks.steps import Step

APPS = ["crm", "slack"]


def channel_id_of(w: Session, name: str) -> int:
    return w.scalars(select(Channel.id).where(Channel.name == name)).one()


@template("cross.deal-status-to-channel", difficulty="easy", apps=APPS, knobs={"hops": (0, 1, 2)})
def deal_status_to_channel(w: Session, rng: random.Random, level: Level) -> Spec:
    """Look a deal up in the CRM and post its stage and amount in the sales channel (harder
    levels name the deal by its account, or by a contact who works there)."""
    idx = crm_index(w)
    deals = [o for o in idx.open_opps() if o.amount]
    if level.hops:
        deals = [o for o in deals if only_open_deal(idx, o)]
    if level.hops == 2:
        deals = [o for o in deals if contact_names(w).get(o.account_id)]
    opp = pick(rng, deals, "open deals")
    me = rng.choice(idx.with_role("rep", idx.sales))
    channel_id = channel_id_of(w, idx.sales)
    named, find = f'"{opp.name}"', [call("crm_get_opportunity", opportunity=opp.name)]
    if level.hops:
        account = idx.account(opp.account_id)
        named = f"the open opportunity with {account.name}"
        find = [call("crm_search_opportunities", account=account.id, open_only=True)]
    if level.hops == 2:
        contact = rng.choice(contact_names(w)[opp.account_id])
        named = f"the open opportunity with the account {contact} works at"
        find.insert(0, call("crm_search_contacts", query=contact))
    return Spec(
        goal=f"The sales team wants to know where {named} stands. Post its current stage "
        "and amount in the sales team's channel.",
        persona=me.handle,
        steps=[
            Step(calls=find),
            post_step(
                me,
                channel_id,
                f"{opp.name}: stage {opp.stage}, amount ${opp.amount:,}.",
                Says(
                    all_of=[[opp.name]],
                    none_of=[o.name for o in idx.open_opps() if o.id != opp.id],
                    facts=[choice(opp.stage, STAGES, ignoring=(opp.name,))],
                    amount=opp.amount,
                    ignoring=[opp.name],
                    act="report",
                ),
                name=f"stage and amount posted in #{idx.sales}",
                channel=idx.sales,
            ),
        ],
    )


@template("cross.escalate-and-tell-manager", difficulty="hard", apps=APPS)
def escalate_and_tell_manager(w: Session, rng: random.Random) -> Spec:
    """Escalate a case and DM the case owner's manager, found in the directory."""
    idx = crm_index(w)
    cases = [
        c
        for c in idx.cases
        if c.status in ("New", "Working") and idx.roles.get(c.owner_id) == "rep" and c.account_id
    ]
    case = pick(rng, cases, "open cases")
    owner = idx.people[case.owner_id]
    boss = idx.people[owner.manager_id]
    admin = idx.with_role("admin")[0]
    me = owner if rng.random() < 0.5 else admin
    reason = rng.choice(ESCALATION_REASONS)
    account = idx.account(case.account_id).name
    return Spec(
        goal=f'Case {case.number} from {account} has to be escalated ("{reason}"). Escalate '
        "it in the CRM, then send the case owner's manager a direct message with the case "
        "number so they know.",
        persona=me.handle,
        steps=[
            escalate_quoted(
                case, reason, me, ("case escalated", "the reason the goal gives is logged")
            ),
            Step(calls=[call("slack_get_person", person=owner.handle)]),
            dm_step(
                w,
                me,
                boss,
                f"Heads up: case {case.number} ({account}) is escalated: {reason}.",
                Says(facts=[case_fact(idx, case.number)], act="confirm"),
                name=f"DM to {boss.name} with the case number",
                lone=True,
            ),
        ],
    )


def _quarter_ends(today: dt.date) -> list[dt.date]:
    """The last day of this month, of this quarter and of the next three quarters."""

    def last_day(year: int, month: int) -> dt.date:
        nxt = dt.date(year + month // 12, month % 12 + 1, 1)
        return nxt - dt.timedelta(days=1)

    ends = [last_day(today.year, today.month)]
    q_month = (today.month - 1) // 3 * 3 + 3
    for i in range(4):
        m = q_month + 3 * i
        ends.append(last_day(today.year + (m - 1) // 12, (m - 1) % 12 + 1))
    return sorted(set(ends))


def _pipeline(idx, owner_id: int, by: dt.date) -> int:
    return sum(_parts(idx, owner_id, by))


def _parts(idx, owner_id: int, by: dt.date) -> list[int]:
    """The amounts of the owner's open deals closing by `by`: a DM may list them beside
    their total."""
    return [o.amount or 0 for o in idx.open_opps(owner_id) if o.close_date <= by]


@template(
    "cross.pipeline-to-manager",
    difficulty="medium",
    apps=APPS,
    knobs={"hops": (0, 1, 2)},  # the recipient: named, your manager, your manager's manager
)
def pipeline_to_manager(w: Session, rng: random.Random, level: Level) -> Spec:
    """Report your open pipeline closing by a date to your manager by DM (easy: the manager
    is named; hard: it goes to your manager's manager)."""
    idx = crm_index(w)
    reps = idx.with_role("rep", idx.sales)
    if level.hops == 2:
        reps = [p for p in reps if idx.people[p.manager_id].manager_id in idx.people]
    me = pick(rng, reps, "sales reps")
    totals = {d: _pipeline(idx, me.id, d) for d in _quarter_ends(idx.today)}
    by = pick(rng, [d for d, n in totals.items() if n], "closing windows with deals")
    total = totals[by]
    chain = [idx.people[me.manager_id]]
    if level.hops == 2:
        chain.append(idx.people[chain[0].manager_id])
    boss = chain[-1]
    whom = {0: boss.name, 1: "your manager", 2: "your manager's manager"}[level.hops]
    looks = [call("slack_get_person", person=p.handle) for p in (me, *chain[:-1])][: level.hops]
    return Spec(
        goal=f"Send {whom} a direct message with the total amount of your open "
        f"opportunities that close on or before {by:%B %-d, %Y}.",
        persona=me.handle,
        steps=[
            Step(
                calls=[
                    call(
                        "crm_search_opportunities",
                        owner=me.handle,
                        open_only=True,
                        close_before=by.isoformat(),
                        limit=100,
                    ),
                    *looks,
                ]
            ),
            dm_step(
                w,
                me,
                boss,
                f"My open pipeline closing by {by:%B %-d}: ${total:,}.",
                Says(amount=total, amounts_besides=_parts(idx, me.id, by), act="report"),
                name=f"DM to {boss.name} with the total",
                lone=True,
                equivalent=[
                    Equivalent(
                        "text.drop-fact",
                        "the DM must carry the total; restating the closing date is optional",
                        tool="slack_send_dm",
                        words=(f"{by:%B}", str(by.day)),
                    )
                ],
            ),
        ],
    )
