"""Long-horizon support templates: triage days of customer requests in #support-inbox
(seeded by `seed_data/support_inbox.py`) into cases with a reply per request, and hand a
departing agent's open cases to two colleagues by priority. Each request or case is its
own sub-goals (see `longhaul.py`)."""

from __future__ import annotations

import datetime as dt
import functools
import itertools
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, Engine, select
from sqlalchemy.orm import Session

from officegym.apps.crm.models import Contact
from officegym.apps.slack.models import Channel, Message
from officegym.seed_data.support_inbox import CHANNEL, URGENCY
from officegym.tasks.base import Spec, template
from officegym.tasks.checks import Check, GradeContext, Same
from officegym.tasks.common import allow_post, call, pick
from officegym.tasks.crm.common import crm_index
from officegym.tasks.crm.steps import activity_step, create_step, reassign_step
from officegym.tasks.cross.common import case_number, handover_steps
from officegym.tasks.cross.longhaul import listing
from officegym.tasks.facts import choice, person
from officegym.tasks.freedom import Free
from officegym.tasks.slack.said import Said
from officegym.tasks.statements import Says
from officegym.tasks.steps import Step

APPS = ["crm", "slack"]
REQUEST_RE = re.compile(
    r"^New request from (?P<contact>.+?) at (?P<account>.+?): (?P<problem>.+?)\. (?P<urgency>.+)$"
)
HIGH = ("Critical", "High")
PRIORITY_OF = {phrase: p for p, phrases in URGENCY.items() for phrase in phrases}


@dataclass(frozen=True)
class Inbox:
    """One post of #support-inbox: a customer request (with its account, contact and
    priority) or chatter (account None)."""

    message_id: int
    day: dt.date
    account: Any = None
    contact_id: int | None = None
    problem: str = ""
    priority: str = ""


def inbox(w: Session) -> list[Inbox]:
    return _inbox(w.get_bind())


@functools.lru_cache(maxsize=8)
def _inbox(engine: Engine) -> list[Inbox]:
    with Session(engine) as w:
        idx = crm_index(w)
        by_name = {a.name: a for a in idx.accounts}
        contacts = {
            (c.account_id, f"{c.first_name} {c.last_name}".strip()): c.id
            for c in w.scalars(select(Contact).order_by(Contact.id.desc()))
        }
        posts = w.execute(
            select(Message.id, Message.text, Message.created_at)
            .join(Channel, Channel.id == Message.channel_id)
            .where(Channel.name == CHANNEL, Message.thread_parent_id.is_(None))
            .order_by(Message.id)
        ).all()
    out = []
    for m in posts:
        found = REQUEST_RE.match(m.text)
        account = by_name.get(found["account"]) if found else None
        if not found or account is None or found["urgency"] not in PRIORITY_OF:
            out.append(Inbox(m.id, m.created_at.date()))
            continue
        contact_id = contacts.get((account.id, found["contact"]))
        priority = PRIORITY_OF[found["urgency"]]
        out.append(
            Inbox(m.id, m.created_at.date(), account, contact_id, found["problem"], priority)
        )
    return out


@dataclass(frozen=True, kw_only=True)
class RepliedWithCase(Check):
    """`author_id` replied in the thread of `thread_of` naming the case the episode opened on
    `account_id` (and no other case): its number is known only once the agent made it."""

    author_id: int
    thread_of: int
    account_id: int

    def frees(self, initial: Connection) -> Sequence[Free]:
        """The reply's text, as the `Said` judging it frees it: the number it must state is
        the agent's case's, not the reference's."""
        return self._said(Says()).frees(initial)

    def _said(self, says: Says) -> Said:
        return Said(name=self.name, author_id=self.author_id, thread_of=self.thread_of, says=says)

    def evaluate(self, g: GradeContext) -> tuple[bool, str]:
        made = g.new_rows("crm_case", {"account_id": self.account_id})
        if not made:
            return False, "no new case on the account"
        number = min(made, key=lambda r: r["id"])["number"]
        everyone = {r["number"]: case_number(r["number"]) for r in g.rows("crm_case", {})}
        says = Says(facts=[choice(number, everyone)], act="confirm")
        return self._said(says).evaluate(g)


@template("cross.triage-support-inbox", difficulty="hard", apps=APPS)
def triage_support_inbox(w: Session, rng: random.Random) -> Spec:
    """Triage days of #support-inbox: a case per customer request, its number in the thread.

    Posts that ask for nothing need no case; the priority follows a rule the goal states."""
    idx = crm_index(w)
    posts = inbox(w)
    days = sorted({p.day for p in posts})
    spans = [
        (days[i:j], urgent)
        for i, j in itertools.combinations(range(len(days) + 1), 2)
        for urgent in (False, True)
        if 10 <= len(_todo(posts, days[i:j], urgent=urgent)) <= 24
    ]
    span, urgent = pick(rng, spans, "spans of days with support requests")
    todo = _todo(posts, span, urgent=urgent)
    me = pick(rng, idx.with_role("rep", idx.support), "support agents")
    last = max(c.number for c in idx.cases)
    steps = [Step(calls=[call("slack_read_channel", channel=CHANNEL, limit=50)])]
    for n, p in enumerate(todo, start=1):
        steps += _triage_steps(p, me.id, f"{int(last) + n:08d}")
    return Spec(
        goal=f"Triage #{CHANNEL} for {_span(span)}. For every customer request posted "
        f"then{URGENT if urgent else ''}, open a support case on the customer's account, "
        "with the customer as the contact, origin Chat, the problem as the request words it "
        "as the subject, and this priority: Critical when all their users are down or "
        "locked out, High when it blocks their work, Low when they say it can wait, Medium "
        "otherwise. Reply in each request's thread with the number of the case you opened "
        "for it. Posts that ask for nothing need no case.",
        persona=me.handle,
        steps=steps,
    )


def _triage_steps(p: Inbox, me_id: int, number: str) -> list[Step]:
    """Open a case for one request (its number will be `number`), then reply with it."""
    made = call(
        "crm_create_case",
        subject=p.problem,
        account=p.account.id,
        contact=p.contact_id,
        priority=p.priority,
        origin="Chat",
    )
    where = {
        "account_id": p.account.id,
        "contact_id": p.contact_id,
        "priority": p.priority,
        "origin": "Chat",
        "subject": Same(p.problem),
    }
    name = f"{p.priority} case for {p.account.name}"
    replied = RepliedWithCase(
        name=f"replied to {p.account.name} with the case number",
        author_id=me_id,
        thread_of=p.message_id,
        account_id=p.account.id,
    )
    return [
        create_step("case", made, where, name=name, allow={"account_id": p.account.id}),
        Step(
            calls=[
                call(
                    "slack_reply_in_thread",
                    message_id=p.message_id,
                    text=f"Opened case {number} for this.",
                )
            ],
            checks=[replied],
            allowed=allow_post(None, me_id, thread_parent_id=p.message_id),
        ),
    ]


URGENT = " that is Critical or High by the rule below (the others wait for tomorrow)"


def _todo(posts: list[Inbox], span: list[dt.date], *, urgent: bool) -> list[Inbox]:
    """The requests of those days (only the Critical and High ones if `urgent`)."""
    return [
        p
        for p in posts
        if p.account is not None and p.day in span and (not urgent or p.priority in HIGH)
    ]


def _span(days: list[dt.date]) -> str:
    if len(days) == 1:
        return f"{days[0]:%A, %B %-d}"
    return f"the days from {days[0]:%A, %B %-d} to {days[-1]:%A, %B %-d}"


@template(
    "cross.case-handover",
    difficulty="hard",
    apps=APPS,
    needs="a support team of at least three agents with open cases",
)
def case_handover(w: Session, rng: random.Random) -> Spec:
    """Hand a departing agent's open cases to two agents by priority; note, DM, announce.

    Each case reassigned, each note, each DM and the announcement are sub-goals."""
    idx = crm_index(w)
    me = pick(rng, idx.with_role("manager", idx.support), "support managers")
    agents = idx.with_role("rep", idx.support)
    open_of = {
        a.id: [c for c in idx.cases if c.owner_id == a.id and c.status != "Closed"] for a in agents
    }
    leaving = pick(rng, [a for a in agents if 8 <= len(open_of[a.id]) <= 22], "agents")
    a, b = rng.sample([x for x in agents if x.id != leaving.id], 2)
    cases = open_of[leaving.id]
    target = {c.id: (a if c.priority in HIGH else b) for c in cases}
    everyone = list(idx.people.values())
    channel_id = w.scalars(select(Channel.id).where(Channel.name == idx.support)).one()
    steps = [Step(calls=[call("crm_search_cases", owner=leaving.handle, open_only=True, limit=50)])]
    for c in cases:
        to = target[c.id]
        noted = Says(facts=[person([to], everyone, ignoring=(leaving.name,))], act="announce")
        steps += [
            reassign_step("case", c.id, to, name=f"case {c.number} goes to {to.name}"),
            activity_step(
                "case",
                c.id,
                me.id,
                "note",
                f"Handed over to {to.name}",
                noted,
                name=f"handover noted on {c.number}",
            ),
        ]
    got = {who.id: sum(target[c.id].id == who.id for c in cases) for who in (a, b)}
    steps += handover_steps(
        w,
        me,
        leaving,
        [(who, got[who.id]) for who in (a, b)],
        unit="cases",
        received=f"open cases from {leaving.name}",
        handed="the open cases",
        channel_id=channel_id,
        channel=idx.support,
    )
    return Spec(
        goal=f"{leaving.name} is leaving the support team. Hand over each of their open "
        f"cases: Critical and High priority cases to {a.name}, the others to {b.name}. On "
        "every case you move, log a note whose subject names its new owner. Then send "
        f"{listing([a.name.split()[0], b.name.split()[0]])} a direct message each with how "
        f"many cases they received, and announce in #{idx.support} who took over "
        f"{leaving.name.split()[0]}'s cases.",
        persona=me.handle,
        steps=steps,
    )
