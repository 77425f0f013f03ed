"""Slack templates that need an answer: look facts up and report them."""

from __future__ import annotations

import functools
import itertools
import random
import re

from sqlalchemy import Engine, select
from sqlalchemy.orm import Session

from officegym.apps.org.models import Person
from officegym.apps.slack.models import Channel, Message
from officegym.seed_data.slack_text import DAYS
from officegym.tasks.base import Level, Spec, template
from officegym.tasks.common import call, people, pick
from officegym.tasks.facts import Fact, choice, integer, percent, person
from officegym.tasks.org import manager_chains
from officegym.tasks.priors import spread
from officegym.tasks.slack.common import channels_of, member_ids
from officegym.tasks.statements import day_forms
from officegym.tasks.steps import Step


@template(
    "slack.lookup-manager",
    difficulty="easy",
    knobs={"hops": (1, 2, 2), "colleagues": (2, 3, 4)},
)
def lookup_manager(w: Session, rng: random.Random, level: Level) -> Spec:
    """Answer who two colleagues' managers are (harder levels: and their managers' managers,
    for three or four colleagues)."""
    everyone = people(w)
    if level.hops == 1:
        return _two_managers(w, rng, pick(rng, everyone, "people"), everyone)
    bosses = {p.manager_id for p in everyone}
    me = pick(rng, [p for p in everyone if p.id not in bosses], "people who manage nobody")
    return _managers_up(rng, me, everyone, level.colleagues)


def _managers_up(rng: random.Random, me: Person, everyone: list[Person], n: int) -> Spec:
    """Who `n` colleagues' managers and their managers are. One colleague's manager's
    manager is nearly always one of a company's few heads (a four-level org), so the
    question asks for every manager up two levels over several colleagues (some may share
    a manager), the set chosen so the answers spread."""
    by_boss: dict[int, list[list[Person]]] = {}
    for c in manager_chains(everyone, 2, avoid=(me.id,)):
        by_boss.setdefault(c[1].id, []).append(c)

    def above(bosses: tuple[int, ...]) -> frozenset[int]:
        return frozenset(p.id for b in bosses for p in by_boss[b][0][1:])

    def reports(b: int, up: frozenset[int]) -> list[list[Person]]:  # none of them an answer
        return [c for c in by_boss[b] if c[0].id not in up]

    def askable(bosses: tuple[int, ...]) -> bool:
        return all(len(reports(b, above(bosses))) >= bosses.count(b) for b in bosses)

    combos = itertools.combinations_with_replacement(sorted(by_boss), n)
    bosses = spread(rng, [c for c in combos if askable(c)], above, f"{n} colleagues")
    up = above(bosses)
    chains = [c for b in sorted(set(bosses)) for c in rng.sample(reports(b, up), bosses.count(b))]
    chains = rng.sample(chains, n)
    subjects = [c[0] for c in chains]
    middle = list({c[1].id: c[1] for c in chains}.values())
    names = ", ".join(f"of {s.name}" for s in subjects[:-1]) + f" and of {subjects[-1].name}"
    by_id = {p.id: p for p in everyone}
    return Spec(
        goal=f"Who are the managers {names}, and the managers of those managers? Answer "
        "with all of their full names.",
        persona=me.handle,
        steps=[
            Step(
                calls=[
                    *[call("slack_get_person", person=s.name) for s in subjects],
                    *[call("slack_get_person", person=m.handle) for m in middle],
                ]
            )
        ],
        answer=person(
            [by_id[i] for i in sorted(up)],
            everyone,
            ignoring=tuple(x for s in subjects for x in (s.name, s.handle)),
        ),
    )


def _two_managers(w: Session, rng: random.Random, me: Person, everyone: list[Person]) -> Spec:
    """Who two colleagues' managers are: a company has few managers, so one colleague's
    would make a constant name pass often; the pair is chosen so the answers spread."""
    staff = [p for p in everyone if p.manager_id and p.id != me.id]
    # No subject manages the other: its name would be cut from the answer as a subject's.
    pairs = [(a, b) for i, a in enumerate(staff) for b in staff[i + 1 :]
             if b.id != a.manager_id and a.id != b.manager_id]  # fmt: skip
    a, b = spread(rng, pairs, lambda ab: frozenset(p.manager_id for p in ab), "colleagues")
    a, b = rng.sample([a, b], 2)
    bosses = sorted({a.manager_id, b.manager_id})
    return Spec(
        goal=f"Who are the managers of {a.name} and of {b.name}? Answer with the managers' "
        "full names.",
        persona=me.handle,
        steps=[Step(calls=[call("slack_get_person", person=p.name) for p in (a, b)])],
        answer=person(
            [w.get_one(Person, m) for m in bosses],
            everyone,
            ignoring=(a.name, a.handle, b.name, b.handle),
        ),
    )


@template("slack.count-members", difficulty="easy")
def count_members(w: Session, rng: random.Random) -> Spec:
    """Answer how many members a channel you can see has, or how many more than another
    (chosen so the answers spread: several channels hold the whole company)."""
    me_id, names, n = spread(rng, _member_counts(w.get_bind()), lambda q: q[2], "channels")
    me = w.get_one(Person, me_id)
    if len(names) == 1:
        question = f"How many members does #{names[0]} have?"
    else:
        question = f"How many more members does #{names[0]} have than #{names[1]}?"
    return Spec(
        goal=f"{question} Answer with just the number.",
        persona=me.handle,
        steps=[Step(calls=[call("slack_get_channel_info", channel=name) for name in names])],
        answer=integer(n, alone=True, ignoring=tuple(f"#{name}" for name in names)),
    )


@functools.lru_cache(maxsize=8)
def _member_counts(engine: Engine) -> list[tuple[int, tuple[str, ...], int]]:
    """(person id, channels, answer) of every question the template may ask: a channel of
    theirs and its member count, or two and how many more the first has."""
    out: list[tuple[int, tuple[str, ...], int]] = []
    with Session(engine) as w:
        for p in people(w):
            size = {c.name: len(member_ids(w, c.id)) for c in channels_of(w, p)}
            out += [(p.id, (a,), n) for a, n in size.items()]
            out += [(p.id, (a, b), size[a] - size[b]) for a in size for b in size
                    if size[a] > size[b]]  # fmt: skip
    return out


FACTS = [
    (
        re.compile(r"Deploy of (\w+) v([\d.]+) is done"),
        "Which version of {subject} was deployed most recently, according to #{channel}? "
        "Answer with the version number only.",
    ),
    (
        re.compile(r"Status for (\w+): .* is (\d+)% done"),
        "In #{channel}, what completion percentage did the most recent status update for "
        "{subject} give? Answer with the number only.",
    ),
    (
        re.compile(r"The (all-hands) is on (\w+) at"),
        "The {subject} has been announced several times in #{channel}; only the most recent "
        "announcement counts. On which weekday is it? Answer with the weekday only.",
    ),
]


@functools.lru_cache(maxsize=8)
def _fact_series(engine: Engine) -> list[tuple[str, str, str, list[str]]]:
    """(channel name, subject, question, values oldest->newest) for facts restated 2+ times
    with a changed value, in public channels: read once per world."""
    series: dict[tuple[int, str, int], list[str]] = {}
    stmt = (
        select(Message.channel_id, Message.text)
        .join(Channel, Channel.id == Message.channel_id)
        .where(Channel.kind == "public", Message.is_deleted.is_(False))
        .order_by(Message.id)
    )
    with Session(engine) as w:
        for channel_id, text in w.execute(stmt):
            for i, (pattern, _) in enumerate(FACTS):
                found = pattern.search(text)
                if found:
                    key = (channel_id, found.group(1), i)
                    series.setdefault(key, []).append(found.group(2))
        names = {cid: name for cid, name in w.execute(select(Channel.id, Channel.name))}
    return [
        (names[cid], subject, FACTS[i][1], values)
        for (cid, subject, i), values in sorted(series.items())
        if len(values) >= 2 and any(v != values[-1] for v in values)
    ]


@template("slack.latest-update", difficulty="medium")
def latest_update(w: Session, rng: random.Random) -> Spec:
    """Report the latest value of a fact restated several times (older values are distractors;
    chosen so the answers spread: some latest values recur across channels)."""
    series = _fact_series(w.get_bind())
    channel, subject, question, values = spread(rng, series, lambda s: s[3][-1], "restated facts")
    me = pick(rng, people(w), "people")
    return Spec(
        goal=question.format(subject=subject, channel=channel),
        persona=me.handle,
        steps=[
            Step(calls=[call("slack_search_messages", query=subject, channel=channel, limit=50)])
        ],
        answer=_latest_fact(question, values, subject),
    )


def _latest_fact(question: str, values: list[str], subject: str) -> Fact:
    """The latest value as the typed fact the question asks for: a version (every version
    stated in the channel is an option), a percentage, or a weekday."""
    latest, label = values[-1], f"the latest value for {subject}"
    if "version" in question:
        return choice(latest, sorted(set(values)), alone=True, ignoring=(subject,), label=label)
    if "percentage" in question:
        return percent(int(latest), alone=True, ignoring=(subject,), label=label)
    return choice(latest, {d: day_forms(d) for d in DAYS}, alone=True, label=label)
