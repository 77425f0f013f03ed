"""Chat ask-the-requester templates: announce an event whose date only the organiser
knows, and forward a document to the person the requester has in mind."""

from __future__ import annotations

import datetime as dt
import random

from sqlalchemy.orm import Session

from officegym.tasks import facts as F
from officegym.tasks.ask.common import ask, persona_and_requester
from officegym.tasks.asked import ActedAt
from officegym.tasks.base import Spec, template
from officegym.tasks.common import dm_channel, dm_step, people, pick, post_step
from officegym.tasks.crm.common import crm_index
from officegym.tasks.slack.common import channels_of
from officegym.tasks.statements import Says, rivals

EVENTS = ["team offsite", "quarterly planning day", "hackathon", "all-hands", "customer summit"]
DOCUMENTS = ["pricing proposal", "security questionnaire", "launch checklist", "hiring plan",
             "vendor contract", "onboarding guide"]  # fmt: skip


@template("slack.ask-event-date", difficulty="medium")
def ask_event_date(w: Session, rng: random.Random) -> Spec:
    """Announce an event in a channel; its date is known only to the organiser: ask them."""
    members = [p for p in people(w) if channels_of(w, p, kinds=("public",))]
    me, req = persona_and_requester(w, rng, members)
    ch = pick(rng, channels_of(w, me, kinds=("public",)), "channels")
    event = rng.choice(EVENTS)
    today = crm_index(w).today
    day = today + dt.timedelta(days=rng.randint(10, 120))
    first = req.name.split()[0]
    parts = ask(
        w, me, req,
        fact=F.date(day),
        reply=f"The {event} is on {day:%A, %B %-d}. Thanks for announcing it!",
        topic=("date", "day", "when", event, *event.split()),
        question=f"Hi {first}, which day is the {event}?",
        acted=ActedAt(
            "slack_message",
            {"user_id": me.id, "channel_id": ch.id, "thread_parent_id": None},
            "created_at",
        ),
        brief=f"You organise the {event}; it takes place on {day:%A, %B %-d, %Y}.",
    )  # fmt: skip
    says = Says(all_of=[[event]], none_of=rivals(EVENTS, event), date=day, act="announce")
    return Spec(
        goal=f"{req.name} (@{req.handle}) is organising the {event} and asked you to announce "
        f"its date in #{ch.name}. You don't know the date: ask {first} in a direct message, "
        "then post the announcement there.",
        persona=me.handle,
        steps=[
            parts.step,
            post_step(
                me,
                ch.id,
                f"Save the date: the {event} is on {day:%B %-d}.",
                says,
                name=f"the {event} and its date announced in #{ch.name}",
                channel=f"#{ch.name}",
            ),
        ],
        hidden=parts.hidden,
    )


@template("slack.ask-who-gets-it", difficulty="medium")
def ask_who_gets_it(w: Session, rng: random.Random) -> Spec:
    """DM a document's link to the person a colleague has in mind; ask them who."""
    everyone = people(w)
    me, req = persona_and_requester(w, rng, everyone)
    doc = rng.choice(DOCUMENTS)
    link = f"https://docs.example.com/{doc.replace(' ', '-')}-{rng.randint(1000, 9999)}"
    first = req.name.split()[0]
    goal = (
        f"{req.name} (@{req.handle}) wants the {doc} sent to the person who will review it. "
        f'Send that person a direct message that reads exactly "Here is the {doc}: {link}". '
        f"You don't know who it is: ask {first} in a direct message first."
    )
    taken = {p.id for p in (me, req)}
    named = {part for p in (me, req) for part in p.name.split()}
    fits = [p for p in everyone if p.id not in taken and not named & set(p.name.split())]
    target = pick(rng, fits, "other people")
    text = f"Here is the {doc}: {link}"
    parts = ask(
        w, me, req,
        fact=F.person(target, everyone, ignoring=(req.name, f"@{req.handle}")),
        reply=f"Please send it to {target.name} (@{target.handle}); they will review it.",
        topic=("who", "whom", "person", "send", "review", "reviewer", doc, *doc.split()),
        question=f"Hi {first}, who should I send the {doc} to?",
        acted=ActedAt(
            "slack_message",
            {"user_id": me.id, "channel_id": dm_channel(w, me, target)},
            "created_at",
        ),
        brief=f"You want {target.name} (@{target.handle}) to review the {doc}.",
    )  # fmt: skip
    return Spec(
        goal=goal,
        persona=me.handle,
        steps=[
            parts.step,
            dm_step(
                w, me, target, text, Says(exactly=text), name=f"the {doc} sent to {target.name}"
            ),
        ],
        hidden=parts.hidden,
    )


__all__ = ["ask_event_date", "ask_who_gets_it"]
